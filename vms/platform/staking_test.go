package platform_test

import (
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

const avax = 1_000_000_000

// stakeTx returns the BaseTx and stake outputs of a staking tx spending the largest UTXO of from:
// the stake goes to from's address, the change back to it, less burn.
func (n *node) stakeFunds(from *ecdsa.PrivateKey, fromP string, stake uint64) (txs.BaseTx, []txs.TransferableOutput) {
	n.t.Helper()
	addr := addrOf(from)
	ux := n.largest(fromP)
	b := n.baseTx(ux, 0, addr, addr)
	b.Outs[0].Out.(*secp256k1fx.TransferOutput).Amount -= stake
	return b, []txs.TransferableOutput{txs.TransferTo(ux.AssetID, stake, addr)}
}

func (n *node) addValidator(t *testing.T, nodeID ids.NodeID, pop *txs.ProofOfPossession, stake, end uint64, shares uint32, delegationOwner ids.ShortID) *txs.Tx {
	t.Helper()
	ewoq := key(t, ewoqKeyHex)
	b, st := n.stakeFunds(ewoq, ewoqP, stake)
	return sign(t, &txs.AddPermissionlessValidatorTx{
		BaseTx:                b,
		Validator:             txs.Validator{NodeID: nodeID, Start: uint64(vectorTime.Unix()), End: end, Weight: stake},
		Signer:                pop,
		Stake:                 st,
		ValidatorRewardsOwner: owner(addrOf(ewoq)),
		DelegatorRewardsOwner: owner(delegationOwner),
		DelegationShares:      shares,
	}, ewoq)
}

func (n *node) addDelegator(t *testing.T, nodeID ids.NodeID, stake, end uint64, rewardsOwner ids.ShortID) *txs.Tx {
	t.Helper()
	ewoq := key(t, ewoqKeyHex)
	b, st := n.stakeFunds(ewoq, ewoqP, stake)
	return sign(t, &txs.AddPermissionlessDelegatorTx{
		BaseTx:       b,
		Validator:    txs.Validator{NodeID: nodeID, Start: uint64(vectorTime.Unix()), End: end, Weight: stake},
		Stake:        st,
		RewardsOwner: owner(rewardsOwner),
	}, ewoq)
}

// expectedReward is the reference's reward formula (§4.10) with the local network's parameters,
// written out independently of the VM's.
func expectedReward(d time.Duration, stake, supply uint64) uint64 {
	const supplyCap = 720_000_000 * avax
	period := big.NewInt(int64(365 * 24 * time.Hour))
	dur := big.NewInt(int64(d))
	num := new(big.Int).Add(new(big.Int).Mul(big.NewInt(20_000), dur), new(big.Int).Mul(big.NewInt(100_000), period))
	r := new(big.Int).SetUint64(supplyCap - supply)
	r.Mul(r, num).Mul(r, new(big.Int).SetUint64(stake)).Mul(r, dur)
	r.Quo(r, new(big.Int).Mul(period, big.NewInt(1_000_000)))
	r.Quo(r, new(big.Int).SetUint64(supply))
	r.Quo(r, period)
	return r.Uint64()
}

func (n *node) supply() uint64 {
	n.t.Helper()
	var r struct {
		Supply uint64 `json:"supply,string"`
	}
	n.Result("getCurrentSupply", `{}`, &r)
	return r.Supply
}

// rewardUTXOs returns the reward UTXOs of staking tx id, parsed.
func (n *node) rewardUTXOs(id ids.ID) []*txs.UTXO {
	n.t.Helper()
	var r struct {
		NumFetched string   `json:"numFetched"`
		UTXOs      []string `json:"utxos"`
	}
	n.Result("getRewardUTXOs", `{"txID":"`+id.String()+`"}`, &r)
	require.Equal(n.t, fmt.Sprint(len(r.UTXOs)), r.NumFetched)
	out := make([]*txs.UTXO, len(r.UTXOs))
	for i, s := range r.UTXOs {
		b, err := ids.Hex.Decode(s)
		require.NoError(n.t, err)
		out[i], err = txs.ParseUTXO(b)
		require.NoError(n.t, err)
	}
	return out
}

// rewardTxID is the ID of the RewardValidatorTx that ends staker id's period.
func rewardTxID(t *testing.T, id ids.ID) ids.ID {
	tx, err := txs.NewTx(&txs.RewardValidatorTx{TxID: id}, nil)
	require.NoError(t, err)
	return tx.ID()
}

// hasUTXO reports whether addr owns UTXO txID:index of amount.
func (n *node) hasUTXO(addr string, txID ids.ID, index uint32, amount uint64) bool {
	for _, ux := range n.utxos(addr) {
		if ux.TxID == txID && ux.OutputIndex == index && amountOf(ux) == amount {
			return true
		}
	}
	return false
}

// TestStakingRewards adds a validator of this node and a delegator to it, refuses bad staking txs
// with the reference's texts and without changing anything, and moves the clock to their end
// times: the chain decides each reward through a proposal block and its commit, pays the stake
// back and the rewards as UTXOs, and the supply, stake and validator set follow. A validator of
// another node, never connected, is decided by an abort: its stake comes back without reward.
func TestStakingRewards(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(vectorTime)
	n := startNode(t, t.TempDir(), clk)
	ewoqAddr, vmrqAddr := addrOf(key(t, ewoqKeyHex)), addrOf(key(t, vmrqKeyHex))
	self := thisNode.NodeID
	now := uint64(vectorTime.Unix())
	const day = 24 * 3600
	supply0 := n.supply()

	pop := newPoP(t)
	val := n.addValidator(t, self, &pop, 2_000*avax, now+14*day, 20_000, vmrqAddr)
	n.issue(val)
	valReward := expectedReward(14*24*time.Hour, 2_000*avax, supply0)
	require.Equal(t, supply0+valReward, n.supply())

	del := n.addDelegator(t, self, 25*avax, now+7*day, vmrqAddr)
	n.issue(del)
	delReward := expectedReward(7*24*time.Hour, 25*avax, supply0+valReward)
	require.Equal(t, supply0+valReward+delReward, n.supply())

	var cur struct {
		Validators []map[string]any `json:"validators"`
	}
	n.Result("getCurrentValidators", `{"nodeIDs":["`+self.String()+`"]}`, &cur)
	require.Len(t, cur.Validators, 1)
	v := cur.Validators[0]
	require.Equal(t, val.ID().String(), v["txID"])
	require.Equal(t, fmt.Sprint(valReward), v["potentialReward"])
	require.Equal(t, "2.0000", v["delegationFee"])
	require.Equal(t, "100.0000", v["uptime"])
	require.Equal(t, true, v["connected"])
	require.Equal(t, "1", v["delegatorCount"])
	require.Equal(t, fmt.Sprint(25*avax), v["delegatorWeight"])
	require.Equal(t, []any{map[string]any{
		"txID": del.ID().String(), "startTime": fmt.Sprint(now), "endTime": fmt.Sprint(now + 7*day),
		"weight": fmt.Sprint(25 * avax), "nodeID": self.String(), "potentialReward": fmt.Sprint(delReward),
		"rewardOwner": map[string]any{"locktime": "0", "threshold": "1", "addresses": []any{vmrqP}},
	}}, v["delegators"])
	var at map[string]struct {
		Weight string `json:"weight"`
	}
	n.Result("getValidatorsAt", `{"height":"proposed"}`, &at)
	require.Equal(t, fmt.Sprint(2_025*avax), at[self.String()].Weight)

	// Bad staking txs: refused with the reference's texts, nothing changed.
	balance, height := n.balance(ewoqP), n.Height()
	other := ids.NodeID{9, 9, 9}
	badPoP := newPoP(t)
	badPoP.Signature = pop.Signature
	for _, tc := range []struct {
		tx   *txs.Tx
		want string
	}{
		{n.addDelegator(t, self, 8_000*avax, now+7*day, ewoqAddr), "validator would be over delegated"},
		{n.addDelegator(t, self, 25*avax, now+15*day, ewoqAddr), "proposed staking period is not inside dependant staking period"},
		{n.addDelegator(t, self, 24*avax, now+7*day, ewoqAddr), "weight of this validator is too low"},
		{n.addDelegator(t, other, 25*avax, now+7*day, ewoqAddr), "failed to fetch the primary network validator for " + other.String() + ": not found"},
		{n.addValidator(t, other, &pop, 1_999*avax, now+14*day, 20_000, ewoqAddr), "weight of this validator is too low"},
		{n.addValidator(t, other, &pop, 2_000*avax, now+3600, 20_000, ewoqAddr), "staking period is too short"},
		{n.addValidator(t, other, &pop, 2_000*avax, now+366*day, 20_000, ewoqAddr), "staking period is too long"},
		{n.addValidator(t, other, &pop, 2_000*avax, now+14*day, 19_999, ewoqAddr), "staker charges an insufficient delegation fee"},
		{n.addValidator(t, self, &pop, 2_000*avax, now+14*day, 20_000, ewoqAddr), "duplicate validator: " + self.String() + " on " + ids.Empty.String()},
	} {
		require.True(t, strings.HasSuffix(n.IssueTxError(tc.tx), tc.want), "%s: %s", tc.want, n.IssueTxError(tc.tx))
	}
	require.Regexp(t, `: failed to verify validator, signer, or rewards owners: invalid proof of possession`,
		n.IssueTxError(n.addValidator(t, other, &badPoP, 2_000*avax, now+14*day, 20_000, ewoqAddr)))
	require.Equal(t, balance, n.balance(ewoqP))
	require.Equal(t, height, n.Height())

	// A validator of a node that never connects: its reward will be refused.
	otherPoP := newPoP(t)
	lone := n.addValidator(t, other, &otherPoP, 3_000*avax, now+10*day, 100_000, ewoqAddr)
	n.issue(lone)
	loneReward := expectedReward(10*24*time.Hour, 3_000*avax, supply0+valReward+delReward)
	var n2 struct {
		Validators []map[string]any `json:"validators"`
	}
	n.Result("getCurrentValidators", `{"nodeIDs":["`+other.String()+`"]}`, &n2)
	require.Len(t, n2.Validators, 1)
	require.Equal(t, "0.0000", n2.Validators[0]["uptime"])
	require.Equal(t, false, n2.Validators[0]["connected"])

	// The delegator's end: a proposal and its commit. The stake comes back at output index 1
	// (after the change), 98 % of the reward to its owner, 2 % accrues to the validator.
	clk.Set(vectorTime.Add(7 * 24 * time.Hour))
	require.Eventually(t, func() bool { return len(n.rewardUTXOs(del.ID())) == 1 }, 20*time.Second, 5*time.Millisecond)
	cut := delReward - (1_000_000-20_000)*delReward/1_000_000
	paid := n.rewardUTXOs(del.ID())[0]
	require.Equal(t, delReward-cut, amountOf(paid))
	require.Equal(t, uint32(2), paid.OutputIndex)
	require.Equal(t, []ids.ShortID{vmrqAddr}, paid.Out.(*secp256k1fx.TransferOutput).Addrs)
	require.True(t, n.hasUTXO(ewoqP, del.ID(), 1, 25*avax))
	require.True(t, n.hasUTXO(vmrqP, del.ID(), 2, delReward-cut))
	require.Equal(t, `{"status":"Committed"}`, n.RawResult("getTxStatus", `{"txID":"`+rewardTxID(t, del.ID()).String()+`"}`))
	n.Result("getCurrentValidators", `{"nodeIDs":["`+self.String()+`"]}`, &cur)
	require.Equal(t, fmt.Sprint(cut), cur.Validators[0]["accruedDelegateeReward"])
	require.Equal(t, "0", cur.Validators[0]["delegatorCount"])

	// The lone validator's end: an abort. Its stake comes back, no reward, and the supply
	// gives back what was reserved for it.
	require.Equal(t, supply0+valReward+delReward+loneReward, n.supply())
	clk.Set(vectorTime.Add(10 * 24 * time.Hour))
	require.Eventually(t, func() bool { return n.hasUTXO(ewoqP, lone.ID(), 1, 3_000*avax) }, 20*time.Second, 5*time.Millisecond)
	require.Equal(t, `{"status":"Aborted"}`, n.RawResult("getTxStatus", `{"txID":"`+rewardTxID(t, lone.ID()).String()+`"}`))
	require.Empty(t, n.rewardUTXOs(lone.ID()))
	require.Equal(t, supply0+valReward+delReward, n.supply())

	// The validator's end: its stake, its reward and its delegatee reward.
	clk.Set(vectorTime.Add(14 * 24 * time.Hour))
	require.Eventually(t, func() bool { return len(n.rewardUTXOs(val.ID())) == 2 }, 20*time.Second, 5*time.Millisecond)
	rewards := n.rewardUTXOs(val.ID())
	require.Equal(t, valReward, amountOf(rewards[0]))
	require.Equal(t, []ids.ShortID{ewoqAddr}, rewards[0].Out.(*secp256k1fx.TransferOutput).Addrs)
	require.Equal(t, cut, amountOf(rewards[1]))
	require.Equal(t, []ids.ShortID{vmrqAddr}, rewards[1].Out.(*secp256k1fx.TransferOutput).Addrs)
	require.Equal(t, []uint32{2, 3}, []uint32{rewards[0].OutputIndex, rewards[1].OutputIndex})
	require.True(t, n.hasUTXO(ewoqP, val.ID(), 1, 2_000*avax))
	require.Equal(t, supply0+valReward+delReward, n.supply())
	n.Result("getCurrentValidators", `{}`, &cur)
	require.Len(t, cur.Validators, len(n.g.P.Validators), "the genesis stakers are left")
	at = nil
	n.Result("getValidatorsAt", `{"height":"proposed"}`, &at)
	require.NotContains(t, at, self.String())
	require.Len(t, at, len(n.g.P.Validators))
}

// TestStakersSurviveRestart adds a validator, restarts the node on its data: the staker, its
// potential reward and the supply are still there, and at its end time the reward is paid.
func TestStakersSurviveRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clk := clock.NewFake(vectorTime)
	n := startNode(t, dir, clk)
	now := uint64(vectorTime.Unix())
	pop := newPoP(t)
	val := n.addValidator(t, thisNode.NodeID, &pop, 2_000*avax, now+2*24*3600, 20_000, addrOf(key(t, ewoqKeyHex)))
	n.issue(val)
	supply := n.supply()
	validators := n.RawResult("getCurrentValidators", `{}`)
	n.Stop()

	n = startNode(t, dir, clk)
	require.Equal(t, supply, n.supply())
	require.Equal(t, validators, n.RawResult("getCurrentValidators", `{}`))
	clk.Set(vectorTime.Add(2 * 24 * time.Hour))
	require.Eventually(t, func() bool { return len(n.rewardUTXOs(val.ID())) == 1 }, 20*time.Second, 5*time.Millisecond)
	require.True(t, n.hasUTXO(ewoqP, val.ID(), 1, 2_000*avax))
	require.Equal(t, supply, n.supply())
}

// TestRefusedStakingKinds issues the pre-Durango staking kinds and a RewardValidatorTx: each is
// refused with the reference's text, and nothing changes.
func TestRefusedStakingKinds(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir(), clock.NewFake(vectorTime))
	ewoq := key(t, ewoqKeyHex)
	now := uint64(vectorTime.Unix())
	v := txs.Validator{NodeID: thisNode.NodeID, Start: now, End: now + 14*24*3600, Weight: 2_000 * avax}
	b, stake := n.stakeFunds(ewoq, ewoqP, v.Weight)
	addValidator := sign(t, &txs.AddValidatorTx{BaseTx: b, Validator: v, Stake: stake, RewardsOwner: owner(addrOf(ewoq)), DelegationShares: 20_000}, ewoq)
	addDelegator := sign(t, &txs.AddDelegatorTx{BaseTx: b, Validator: v, Stake: stake, RewardsOwner: owner(addrOf(ewoq))}, ewoq)
	reward, err := txs.NewTx(&txs.RewardValidatorTx{TxID: addValidator.ID()}, nil)
	require.NoError(t, err)
	height, balance := n.Height(), n.balance(ewoqP)
	for tx, want := range map[*txs.Tx]string{
		addValidator: "AddValidatorTx is not permitted post-Durango",
		addDelegator: "AddDelegatorTx is not permitted post-Durango",
		reward:       "can not issue a reward validator tx",
	} {
		got := n.IssueTxError(tx)
		require.True(t, strings.HasSuffix(got, want), got)
	}
	require.Equal(t, height, n.Height())
	require.Equal(t, balance, n.balance(ewoqP))
}

// TestGenesisStakersRewarded runs a node that is staker1 (§7.4) and moves the clock past the
// genesis stakers' end times: each is decided through a proposal block and its option like any
// staker. Staker1, this node and so up 100 %, is committed and paid its potential reward; the
// other four, never connected, are aborted, their potential rewards leaving the supply. Every
// stake comes back to its owner (vmRQ) at output index 0, the genesis txs having no outputs.
func TestGenesisStakersRewarded(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(vectorTime)
	staker1, err := ids.NodeIDFromString("NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg")
	require.NoError(t, err)
	f := thisNode
	f.NodeID = staker1
	n := startNodeWith(t, t.TempDir(), clk, f)
	g := n.g
	require.Equal(t, uint64(361_196_333_750_752_149), n.supply())

	clk.Set(time.Unix(int64(g.P.Timestamp), 0).Add(365 * 24 * time.Hour))
	require.Eventually(t, func() bool { return n.RawResult("getCurrentValidators", `{}`) == `{"validators":[]}` },
		20*time.Second, 5*time.Millisecond)
	require.Equal(t, "10", n.Height(), "a proposal and an option block per staker")
	supply, paid := g.P.InitialSupply, uint64(0)
	for _, tx := range g.P.Validators {
		v := tx.Unsigned().(*txs.AddPermissionlessValidatorTx).Validator
		reward := expectedReward(time.Duration(v.End-v.Start)*time.Second, v.Weight, supply)
		supply += reward
		require.True(t, n.hasUTXO(vmrqP, tx.ID(), 0, v.Weight), v.NodeID)
		status, rewards := "Aborted", n.rewardUTXOs(tx.ID())
		if v.NodeID == staker1 {
			status, paid = "Committed", reward
			require.Len(t, rewards, 1)
			require.Equal(t, reward, amountOf(rewards[0]))
			require.Equal(t, []ids.ShortID{addrOf(key(t, ewoqKeyHex))}, rewards[0].Out.(*secp256k1fx.TransferOutput).Addrs)
		} else {
			require.Empty(t, rewards, v.NodeID)
		}
		require.Equal(t, `{"status":"`+status+`"}`, n.RawResult("getTxStatus", `{"txID":"`+rewardTxID(t, tx.ID()).String()+`"}`))
	}
	require.Equal(t, uint64(361_196_333_750_752_149), supply)
	require.Equal(t, g.P.InitialSupply+paid, n.supply())
	require.Equal(t, `{"stake":"0","weight":"0"}`, n.RawResult("getTotalStake", `{}`))
}

// TestDelegatorToGenesisStaker delegates to staker2, a genesis validator: the recorded view adds
// the delegation to its weight; this node's view, which leaves the genesis stakers out, is still
// this node alone.
func TestDelegatorToGenesisStaker(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir(), clock.NewFake(vectorTime))
	staker2, err := ids.NodeIDFromString("NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ")
	require.NoError(t, err)
	del := n.addDelegator(t, staker2, 25*avax, uint64(vectorTime.Unix())+7*24*3600, addrOf(key(t, ewoqKeyHex)))
	n.issue(del)
	var at map[string]struct {
		Weight string `json:"weight"`
	}
	n.Result("getValidatorsAt", `{"height":"proposed"}`, &at)
	require.Equal(t, fmt.Sprint(2_000_000*avax+25*avax), at[staker2.String()].Weight)

	cvm, ok := n.Manager.VM(ids.Empty)
	require.True(t, ok)
	vm := cvm.(*platform.VM)
	set, err := vm.ValidatorsAt(ids.Empty, vm.Height())
	require.NoError(t, err)
	require.Len(t, set, 1)
	require.Equal(t, thisNode.NodeID, set[0].NodeID)
	require.Equal(t, thisNode.Weight, set[0].Weight)
	own, err := vm.SubnetValidators(ids.Empty)
	require.NoError(t, err)
	require.Len(t, own, 1)
	require.Equal(t, thisNode.NodeID, own[0].NodeID)
}
