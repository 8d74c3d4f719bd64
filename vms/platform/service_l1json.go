package platform

import (
	"encoding/hex"
	"slices"
	"strconv"
	"sync"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// maxCachedAddresses bounds addressCache: 4,096 entries of about 100 bytes each.
const maxCachedAddresses = 4096

// addressCache maps addresses to their P-Chain text form (`P-<hrp>1…`, §2.4), which depends only
// on the address and the VM's fixed HRP, so an entry never goes stale. L1 validators' owners are
// formatted on every getCurrentValidators call and repeat across validators and calls; the cache
// spares their bech32 encoding. When full it drops an arbitrary entry. It is safe for
// concurrent use.
type addressCache struct {
	hrp string
	mu  sync.Mutex
	m   map[ids.ShortID]string
}

func newAddressCache(hrp string) *addressCache {
	return &addressCache{hrp: hrp, m: make(map[ids.ShortID]string)}
}

// format returns addr's text form.
func (c *addressCache) format(addr ids.ShortID) (string, error) {
	c.mu.Lock()
	s, ok := c.m[addr]
	c.mu.Unlock()
	if ok {
		return s, nil
	}
	s, err := address.Format(txs.ChainAlias, c.hrp, addr)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxCachedAddresses {
		for k := range c.m {
			delete(c.m, k)
			break
		}
	}
	c.m[addr] = s
	return s, nil
}

// formatAll returns the text forms of addrs, never nil.
func (c *addressCache) formatAll(addrs []ids.ShortID) ([]string, error) {
	out := make([]string, len(addrs))
	for i, a := range addrs {
		s, err := c.format(a)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// l1ValidatorText is APIL1Validator with every field already in its JSON text form: the same
// field names, in the same order, so that it encodes to the same bytes. encoding/json writes
// plain strings directly, where it would call each ids.ID, ids.NodeID and jsonrpc.Uint64's
// MarshalJSON and then re-scan (compact) its output; getCurrentValidators on a large L1 spent
// most of its time there.
type l1ValidatorText struct {
	NodeID                string    `json:"nodeID"`
	Weight                string    `json:"weight"`
	StartTime             string    `json:"startTime"`
	ValidationID          string    `json:"validationID"`
	PublicKey             string    `json:"publicKey"`
	RemainingBalanceOwner ownerText `json:"remainingBalanceOwner"`
	DeactivationOwner     ownerText `json:"deactivationOwner"`
	MinNonce              string    `json:"minNonce"`
	Balance               string    `json:"balance"`
}

// ownerText is APIOwner in text form (see l1ValidatorText).
type ownerText struct {
	Locktime  string   `json:"locktime"`
	Threshold string   `json:"threshold"`
	Addresses []string `json:"addresses"`
}

// l1ValidatorReply returns v as platform.getCurrentValidators shows it, byte for byte as
// l1ValidatorJSON's result encodes. An owner equal to the last one formatted through prev
// shares its formatted addresses; prev starts as the zero ownerMemo and is updated.
func (s *service) l1ValidatorReply(v *L1Validator, prev *ownerMemo) (*l1ValidatorText, error) {
	rbo, err := prev.format(s.addrs, &v.RemainingBalanceOwner)
	if err != nil {
		return nil, err
	}
	do, err := prev.format(s.addrs, &v.DeactivationOwner)
	if err != nil {
		return nil, err
	}
	return &l1ValidatorText{
		NodeID:                v.NodeID.String(),
		Weight:                strconv.FormatUint(v.Weight, 10),
		StartTime:             strconv.FormatUint(v.StartTime, 10),
		ValidationID:          v.ValidationID.String(),
		PublicKey:             "0x" + hex.EncodeToString(v.PublicKey[:]),
		RemainingBalanceOwner: rbo,
		DeactivationOwner:     do,
		MinNonce:              strconv.FormatUint(v.MinNonce, 10),
		Balance:               strconv.FormatUint(v.Balance, 10),
	}, nil
}

// ownerMemo remembers the last owner formatted in one reply, so that a run of validators with
// the same owner (the common case: one manager owns them all) shares one formatted owner.
type ownerMemo struct {
	owner txs.PChainOwner
	out   ownerText
	set   bool
}

// format returns o in text form, reusing the memo's when o is the same owner.
func (m *ownerMemo) format(c *addressCache, o *txs.PChainOwner) (ownerText, error) {
	if m.set && m.owner.Threshold == o.Threshold && slices.Equal(m.owner.Addresses, o.Addresses) {
		return m.out, nil
	}
	addrs, err := c.formatAll(o.Addresses)
	if err != nil {
		return ownerText{}, err
	}
	m.owner, m.set = *o, true
	m.out = ownerText{Locktime: "0", Threshold: strconv.FormatUint(uint64(o.Threshold), 10), Addresses: addrs}
	return m.out, nil
}
