package genesis

import (
	"bytes"
	"fmt"
	"slices"
	"time"

	"github.com/cornice-node/cornice/vms/components/utxo"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	ptxs "github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// VM and fx IDs of the Primary Network's chains: ASCII names padded with zeros (§2.3).
var (
	// AVMID is the X-Chain's VM, `jvYyfQTx…`.
	AVMID = ids.FromName("avm")
	// EVMID is the C-Chain's VM, `mgj786NP…`.
	EVMID = ids.FromName("evm")
	// XChainFxIDs are the X-Chain's fxs, in the order that numbers their type IDs (§1.3).
	XChainFxIDs = [3]ids.ID{ids.FromName("secp256k1fx"), ids.FromName("nftfx"), ids.FromName("propertyfx")}
)

// Chain names in the genesis CreateChainTxs (§4.6).
const (
	XChainName = "X-Chain"
	CChainName = "C-Chain"
)

// AVAX asset definition (§6.4).
const (
	avaxAlias        = "AVAX"
	avaxName         = "Avalanche"
	avaxSymbol       = "AVAX"
	avaxDenomination = 9
)

// Genesis is the genesis of the Primary Network's chains, built by [Build].
type Genesis struct {
	// StartTime is the genesis time after the start-time rule (§7.2): the P-Chain's genesis
	// timestamp and the initial validators' start.
	StartTime time.Time

	// P is the P-Chain's genesis and PGenesis its bytes, the P-Chain's genesis data.
	P        *ptxs.Genesis
	PGenesis []byte

	// X is the X-Chain's genesis and XGenesis its bytes, the X CreateChainTx's genesis data.
	X        *xtxs.Genesis
	XGenesis []byte
	// AVAX is the AVAX asset's CreateAssetTx, without credentials: the X-Chain stores it as
	// accepted and its UTXOs are the X-Chain's genesis UTXOs. Its ID is AVAXAssetID.
	AVAX        *xtxs.Tx
	AVAXAssetID ids.ID

	// XChain and CChain are the CreateChainTxs in the P genesis; their IDs are the chain IDs.
	XChain, CChain     *ptxs.Tx
	XChainID, CChainID ids.ID
	// CGenesis is the C-Chain's genesis data: the config's cChainGenesis, verbatim.
	CGenesis []byte
}

// PGenesisBlock returns the P-Chain's genesis block: an Apricot commit block on sha256 of the P
// genesis bytes (§4.1).
func (g *Genesis) PGenesisBlock() *ptxs.ApricotCommitBlock {
	return ptxs.NewGenesisBlock(g.PGenesis)
}

// XGenesisBlock returns the X-Chain's genesis block for the network's Cortina time and configured
// stop vertex (§6.1). An empty stopVertexID, as on local and custom networks, means the stop vertex
// built on an empty DAG.
func (g *Genesis) XGenesisBlock(cortinaTime time.Time, stopVertexID ids.ID) *xtxs.StandardBlock {
	if stopVertexID == ids.Empty {
		stopVertexID = xtxs.EmptyStopVertexID(g.XChainID)
	}
	return xtxs.NewGenesisBlock(stopVertexID, uint64(cortinaTime.Unix()))
}

// RecentStartTime returns the latest start + k·period, for k ≥ 0, that is not after now: the
// local network's rule for its genesis time (§7.2). It returns start when now is before start or
// period is not positive.
func RecentStartTime(start, now time.Time, period time.Duration) time.Time {
	step := int64(period / time.Second)
	elapsed := now.Unix() - start.Unix()
	if step <= 0 || elapsed < 0 {
		return start
	}
	return start.Add(time.Duration(elapsed/step*step) * time.Second)
}

// Build builds the genesis of the Primary Network's chains from cfg, as the reference node does
// (§4.6, §6.4, §7): the X-Chain's genesis, whose first asset is AVAX; the X and C CreateChainTxs;
// and the P-Chain's genesis with its UTXOs, initial validators and chains. now is only used for
// the start-time rule, when cfg.StartTimePeriod is positive. Build validates cfg first and
// reports every problem at once.
func Build(cfg *Config, now time.Time) (*Genesis, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("invalid genesis config: %w", err)
	}
	start := time.Unix(int64(cfg.StartTime), 0).UTC()
	if cfg.StartTimePeriod > 0 {
		start = RecentStartTime(start, now, cfg.StartTimePeriod).UTC()
	}
	g := &Genesis{StartTime: start, CGenesis: []byte(cfg.CChainGenesis)}

	if err := g.buildX(cfg); err != nil {
		return nil, err
	}
	if err := g.buildChains(cfg); err != nil {
		return nil, err
	}
	if err := g.buildP(cfg); err != nil {
		return nil, err
	}
	return g, nil
}

// buildX builds the X-Chain's genesis and the AVAX asset (§6.4): one TransferOutput per
// allocation with an initial amount, allocations sorted by (amount, address), outputs sorted by
// their encoding, and the allocations' ETH addresses as the memo.
func (g *Genesis) buildX(cfg *Config) error {
	var xAllocs []Allocation
	for _, a := range cfg.Allocations {
		if a.InitialAmount > 0 {
			xAllocs = append(xAllocs, a)
		}
	}
	slices.SortStableFunc(xAllocs, func(a, b Allocation) int {
		if a.InitialAmount != b.InitialAmount {
			if a.InitialAmount < b.InitialAmount {
				return -1
			}
			return 1
		}
		return a.AVAXAddr.Compare(b.AVAXAddr)
	})
	memo := make([]byte, 0, 20*len(xAllocs))
	outs := make([]xtxs.Output, 0, len(xAllocs))
	for _, a := range xAllocs {
		memo = append(memo, a.ETHAddr[:]...)
		outs = append(outs, &secp256k1fx.TransferOutput{Amount: a.InitialAmount, OutputOwners: owner(a.AVAXAddr)})
	}
	if err := sortByEncoding(outs, func(p *codec.Packer, out xtxs.Output) {
		(&xtxs.UTXO{Out: out}).Marshal(p)
	}); err != nil {
		return fmt.Errorf("sort AVAX outputs: %w", err)
	}
	asset := xtxs.GenesisAsset{
		Alias: avaxAlias,
		CreateAssetTx: xtxs.CreateAssetTx{
			BaseTx:       xtxs.BaseTx{NetworkID: cfg.NetworkID, Memo: memo},
			Name:         avaxName,
			Symbol:       avaxSymbol,
			Denomination: avaxDenomination,
		},
	}
	if len(outs) > 0 {
		asset.CreateAssetTx.States = []xtxs.InitialState{{FxIndex: 0, Outs: outs}}
	}
	g.X = &xtxs.Genesis{Txs: []xtxs.GenesisAsset{asset}}
	var err error
	if g.XGenesis, err = g.X.Bytes(); err != nil {
		return fmt.Errorf("encode X genesis: %w", err)
	}
	if g.AVAX, err = g.X.Txs[0].Tx(); err != nil {
		return fmt.Errorf("encode AVAX asset: %w", err)
	}
	g.AVAXAssetID = g.AVAX.ID()
	return nil
}

// buildChains builds the X and C CreateChainTxs (§4.6): no inputs, outputs or credentials, on the
// Primary Network, with an empty subnet authorization.
func (g *Genesis) buildChains(cfg *Config) error {
	chain := func(name string, vmID ids.ID, fxIDs []ids.ID, genesisData []byte) (*ptxs.Tx, error) {
		return ptxs.NewTx(&ptxs.CreateChainTx{
			BaseTx:      ptxs.BaseTx{NetworkID: cfg.NetworkID},
			SubnetID:    ids.Empty,
			ChainName:   name,
			VMID:        vmID,
			FxIDs:       fxIDs,
			GenesisData: genesisData,
		}, nil)
	}
	var err error
	if g.XChain, err = chain(XChainName, AVMID, XChainFxIDs[:], g.XGenesis); err != nil {
		return fmt.Errorf("encode X-Chain creation: %w", err)
	}
	if g.CChain, err = chain(CChainName, EVMID, nil, g.CGenesis); err != nil {
		return fmt.Errorf("encode C-Chain creation: %w", err)
	}
	g.XChainID, g.CChainID = g.XChain.ID(), g.CChain.ID()
	return nil
}

// buildP builds the P-Chain's genesis (§4.6): a UTXO per unlock of each allocation that is not
// staked, one AddPermissionlessValidatorTx per initial staker holding its share of the staked
// allocations, the chains, the start time, the initial supply and the message.
func (g *Genesis) buildP(cfg *Config) error {
	start := uint64(g.StartTime.Unix())
	staked := make(map[ids.ShortID]bool, len(cfg.InitialStakedFunds))
	for _, addr := range cfg.InitialStakedFunds {
		staked[addr] = true
	}

	var utxos []ptxs.GenesisUTXO
	var stakedAllocs []Allocation
	for _, a := range cfg.Allocations {
		if staked[a.AVAXAddr] {
			stakedAllocs = append(stakedAllocs, a)
			continue
		}
		for _, u := range a.UnlockSchedule {
			if u.Amount == 0 {
				continue
			}
			utxos = append(utxos, ptxs.GenesisUTXO{
				UTXO: ptxs.UTXO{
					UTXOID:  utxo.UTXOID{OutputIndex: uint32(len(utxos))},
					AssetID: g.AVAXAssetID,
					Out:     pOutput(a.AVAXAddr, u, start),
				},
				Message: bytes.Clone(a.ETHAddr[:]),
			})
		}
	}

	shares := splitAllocations(stakedAllocs, len(cfg.InitialStakers))
	validators := make([]*ptxs.Tx, 0, len(cfg.InitialStakers))
	for i, s := range cfg.InitialStakers {
		tx, err := g.validatorTx(cfg, i, s, shares[i], start)
		if err != nil {
			return fmt.Errorf("encode initial staker %s: %w", s.NodeID, err)
		}
		validators = pushByEndTime(validators, tx)
	}

	supply, err := cfg.InitialSupply()
	if err != nil {
		return err
	}
	g.P = &ptxs.Genesis{
		UTXOs:         utxos,
		Validators:    validators,
		Chains:        []*ptxs.Tx{g.XChain, g.CChain},
		Timestamp:     start,
		InitialSupply: supply,
		Message:       cfg.Message,
	}
	if g.PGenesis, err = g.P.Bytes(); err != nil {
		return fmt.Errorf("encode P genesis: %w", err)
	}
	return nil
}

// validatorTx builds the genesis tx of initial staker i (§4.6): it starts at the genesis time,
// ends i offsets before start + duration, and stakes its share of the staked allocations.
func (g *Genesis) validatorTx(cfg *Config, i int, s Staker, share []Allocation, start uint64) (*ptxs.Tx, error) {
	var stake []ptxs.TransferableOutput
	var weight uint64
	for _, a := range share {
		for _, u := range a.UnlockSchedule {
			stake = append(stake, ptxs.TransferableOutput{AssetID: g.AVAXAssetID, Out: pOutput(a.AVAXAddr, u, start)})
			weight += u.Amount // The shares add up to the validated initial supply: no overflow.
		}
	}
	if err := sortByEncoding(stake, func(p *codec.Packer, out ptxs.TransferableOutput) { out.Marshal(p) }); err != nil {
		return nil, err
	}
	end := start + cfg.InitialStakeDuration - uint64(i)*cfg.InitialStakeDurationOffset
	return ptxs.NewTx(&ptxs.AddPermissionlessValidatorTx{
		BaseTx:                ptxs.BaseTx{NetworkID: cfg.NetworkID},
		Validator:             ptxs.Validator{NodeID: s.NodeID, Start: start, End: end, Weight: weight},
		SubnetID:              ids.Empty,
		Signer:                s.Signer,
		Stake:                 stake,
		ValidatorRewardsOwner: owner(s.RewardAddress),
		DelegatorRewardsOwner: owner(s.RewardAddress),
		DelegationShares:      s.DelegationFee,
	}, nil)
}

// owner returns the single-address owner the genesis gives every output: threshold 1, no locktime.
func owner(addr ids.ShortID) secp256k1fx.OutputOwners {
	return secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{addr}}
}

// pOutput returns a P-Chain genesis output of u.Amount to addr, locked in a LockOut if it unlocks
// after the genesis time (§4.6).
func pOutput(addr ids.ShortID, u LockedAmount, start uint64) ptxs.Output {
	out := &secp256k1fx.TransferOutput{Amount: u.Amount, OutputOwners: owner(addr)}
	if u.Locktime > start {
		return &ptxs.LockOut{Locktime: u.Locktime, Out: out}
	}
	return out
}

// sortByEncoding sorts vs by the bytes marshal writes for each, as the reference sorts outputs by
// their codec bytes. The order of equal encodings is kept.
func sortByEncoding[T any](vs []T, marshal func(*codec.Packer, T)) error {
	keys := make([][]byte, len(vs))
	for i, v := range vs {
		p := codec.NewPacker(nil)
		marshal(p, v)
		b, err := p.Bytes()
		if err != nil {
			return err
		}
		keys[i] = b
	}
	idx := make([]int, len(vs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return bytes.Compare(keys[a], keys[b]) })
	sorted := make([]T, len(vs))
	for i, j := range idx {
		sorted[i] = vs[j]
	}
	copy(vs, sorted)
	return nil
}

// splitAllocations divides the staked allocations among n stakers (n ≥ 1), as the reference does:
// each of the first n−1 stakers gets exactly total/n nAVAX, taken from the allocations' unlock
// schedules in order and splitting an unlock where a share ends; the last staker gets the rest.
// Each share is a list of allocations holding only the staked parts of their schedules.
func splitAllocations(allocs []Allocation, n int) [][]Allocation {
	var total uint64
	for _, a := range allocs {
		for _, u := range a.UnlockSchedule {
			total += u.Amount
		}
	}
	perStaker := total / uint64(n)

	shares := make([][]Allocation, 0, n)
	var current []Allocation // the share being filled
	var currentAmount uint64
	for _, a := range allocs {
		piece := Allocation{ETHAddr: a.ETHAddr, AVAXAddr: a.AVAXAddr}
		for _, u := range a.UnlockSchedule {
			// Close shares while this unlock overfills the current one; the last share takes
			// whatever remains.
			for currentAmount+u.Amount > perStaker && len(shares) < n-1 {
				take := perStaker - currentAmount
				piece.UnlockSchedule = append(piece.UnlockSchedule, LockedAmount{Amount: take, Locktime: u.Locktime})
				u.Amount -= take
				shares = append(shares, append(current, piece))
				current, currentAmount = nil, 0
				piece = Allocation{ETHAddr: a.ETHAddr, AVAXAddr: a.AVAXAddr}
			}
			if u.Amount == 0 {
				continue
			}
			piece.UnlockSchedule = append(piece.UnlockSchedule, u)
			currentAmount += u.Amount
		}
		if len(piece.UnlockSchedule) > 0 {
			current = append(current, piece)
		}
	}
	return append(shares, current)
}

// pushByEndTime adds tx to the binary min-heap heap, ordered by validator end time, with the
// standard sift-up. The reference stores its genesis validators in this heap's array order, not
// sorted (§4.6).
func pushByEndTime(heap []*ptxs.Tx, tx *ptxs.Tx) []*ptxs.Tx {
	end := func(tx *ptxs.Tx) uint64 {
		return tx.Unsigned().(*ptxs.AddPermissionlessValidatorTx).Validator.End
	}
	heap = append(heap, tx)
	for i := len(heap) - 1; i > 0; {
		parent := (i - 1) / 2
		if end(heap[i]) >= end(heap[parent]) {
			break
		}
		heap[i], heap[parent] = heap[parent], heap[i]
		i = parent
	}
	return heap
}
