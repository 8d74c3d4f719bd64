package wallet_test

import (
	"crypto/sha256"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/wallet"
)

// Keys of the local network (platform-exchange.md §2.5).
const (
	ewoqHex = "56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027"
	vmrqHex = "7a14fdf6bb1d53e28384f70209280dd8848bdc96b5f9eb7fdde9fcddc7ef1a0d"
	vmrqCB  = "PrivateKey-vmRQiZeXEXYMyJhEiqdC2z5JhuDbxL8ix9UVvjgMu2Er1NepE"
)

func TestParseKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    string // canonical PrivateKey- form
		x, p, c string // addresses on the local network
		wantErr error
	}{
		{name: "ewoq CB58", in: wallet.LocalKey, want: wallet.LocalKey,
			x: "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", p: "P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u",
			c: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"},
		{name: "ewoq hex", in: ewoqHex, want: wallet.LocalKey,
			x: "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", p: "P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u",
			c: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"},
		{name: "vmRQ 0x hex with spaces", in: " 0x" + vmrqHex + "\n", want: vmrqCB,
			x: "X-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2", p: "P-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2",
			c: "0x1f0e5C64AFdf53175f78846f7125776E76FA8F34"},
		{name: "vmRQ CB58", in: vmrqCB, want: vmrqCB,
			x: "X-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2", p: "P-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2",
			c: "0x1f0e5C64AFdf53175f78846f7125776E76FA8F34"},
		{name: "bad checksum", in: wallet.LocalKey[:len(wallet.LocalKey)-1] + "M", wantErr: wallet.ErrInvalidKey},
		{name: "short hex", in: "0x1234", wantErr: wallet.ErrInvalidKey},
		{name: "not hex", in: "zz" + ewoqHex[2:], wantErr: wallet.ErrInvalidKey},
		{name: "zero key", in: strings.Repeat("00", 32), wantErr: wallet.ErrInvalidKey},
		{name: "past the group order", in: strings.Repeat("ff", 32), wantErr: wallet.ErrInvalidKey},
		{name: "empty", in: "", wantErr: wallet.ErrInvalidKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			k, err := wallet.ParseKey(tt.in)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, k.String())
			back, err := wallet.ParseKey(k.Hex())
			require.NoError(t, err)
			require.Equal(t, tt.want, back.String())
			if tt.want == wallet.LocalKey {
				require.Equal(t, "0x"+ewoqHex, k.Hex())
			}
			require.Equal(t, tt.x, k.ChainAddress("X", 12345))
			require.Equal(t, tt.p, k.ChainAddress("P", 12345))
			require.Equal(t, tt.c, k.EthAddress().Hex())
			require.Equal(t, tt.want == wallet.LocalKey, k.IsLocalKey())
		})
	}
}

// TestChainAddressHRPs checks the ewoq address under other networks' HRPs (§2.4, §2.5).
func TestChainAddressHRPs(t *testing.T) {
	t.Parallel()
	k, err := wallet.ParseKey(wallet.LocalKey)
	require.NoError(t, err)
	require.Equal(t, "X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5", k.ChainAddress("X", 1))
	require.Equal(t, "P-fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t", k.ChainAddress("P", 5))
	require.Equal(t, "X-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p", k.ChainAddress("X", 1337))
}

func TestCheckKeyForNetwork(t *testing.T) {
	t.Parallel()
	local, err := wallet.ParseKey(wallet.LocalKey)
	require.NoError(t, err)
	other, err := wallet.ParseKey(vmrqHex)
	require.NoError(t, err)
	tests := []struct {
		name      string
		key       *wallet.Key
		networkID uint32
		wantErr   error
	}{
		{"local key on local", local, 12345, nil},
		{"local key on a custom network", local, 1337, nil},
		{"local key on mainnet", local, 1, wallet.ErrLocalKeyRefused},
		{"local key on fuji", local, 5, wallet.ErrLocalKeyRefused},
		{"local key on unittest", local, 10, wallet.ErrLocalKeyRefused},
		{"another key on mainnet", other, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.ErrorIs(t, wallet.CheckKeyForNetwork(tt.key, tt.networkID), tt.wantErr)
		})
	}
}

// TestSign checks the signature format of §3.2: it recovers to the key's address with the
// node's own recovery, which refuses high S and other recovery flags.
func TestSign(t *testing.T) {
	t.Parallel()
	for _, h := range []string{ewoqHex, vmrqHex} {
		k, err := wallet.ParseKey(h)
		require.NoError(t, err)
		for i := range 20 {
			digest := sha256.Sum256([]byte{byte(i)})
			sig, err := k.Sign(digest)
			require.NoError(t, err)
			addr, err := secp256k1fx.RecoverAddress(digest, sig)
			require.NoError(t, err)
			require.Equal(t, k.Address(), addr)
		}
	}
}

// FuzzParseKey checks that parsing never panics, and that a parsed key's canonical form parses
// back to the same key.
func FuzzParseKey(f *testing.F) {
	for _, s := range []string{wallet.LocalKey, ewoqHex, "0x" + vmrqHex, vmrqCB, "PrivateKey-", "0x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := wallet.ParseKey(s)
		if err != nil {
			require.ErrorIs(t, err, wallet.ErrInvalidKey)
			return
		}
		again, err := wallet.ParseKey(k.String())
		require.NoError(t, err)
		require.Equal(t, k.String(), again.String())
		require.Equal(t, k.Address(), again.Address())
	})
}
