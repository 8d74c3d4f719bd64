package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestKeysCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"default key", nil, "X: X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u\nP: P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u\nC: 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC\n"},
		{"hex key on mainnet", []string{"--key", "7a14fdf6bb1d53e28384f70209280dd8848bdc96b5f9eb7fdde9fcddc7ef1a0d", "--network-id", "1"},
			"X: X-avax1g65uqn6t77p656w64023nh8nd9updzmxahxl0z\nP: P-avax1g65uqn6t77p656w64023nh8nd9updzmxahxl0z\nC: 0x1f0e5C64AFdf53175f78846f7125776E76FA8F34\n"},
		{"network by name", []string{"--key", "7a14fdf6bb1d53e28384f70209280dd8848bdc96b5f9eb7fdde9fcddc7ef1a0d", "--network-id", "fuji"},
			"X: X-fuji1g65uqn6t77p656w64023nh8nd9updzmx39zqra\nP: P-fuji1g65uqn6t77p656w64023nh8nd9updzmx39zqra\nC: 0x1f0e5C64AFdf53175f78846f7125776E76FA8F34\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, started, code, stdout, stderr := runCLI(t, append([]string{"keys"}, tt.args...)...)
			require.False(t, started)
			require.Equal(t, 0, code, stderr)
			require.Equal(t, tt.want, stdout)
		})
	}
	_, _, code, _, stderr := runCLI(t, "keys", "--key", "PrivateKey-nope")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "cornice: --key: invalid private key")
	_, _, code, _, stderr = runCLI(t, "keys", "--network-id", "nowhere")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "cornice: --network-id: ")
}
