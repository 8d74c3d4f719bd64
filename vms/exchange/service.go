package exchange

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/chainapi"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/exchange/api"
	"github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/internal/txlog"
	"github.com/cornice-node/cornice/vms/internal/utxopage"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Statuses avm.getTxStatus reports: only these two, although the reference's docs list more
// (§6.5).
const (
	statusAccepted = "Accepted"
	statusUnknown  = "Unknown"
)

// service is the avm API of one X-Chain VM (§6.5). It is safe for concurrent use.
type service struct {
	vm *VM
	// chain parses this chain's addresses.
	chain address.Chain
}

// newHandler returns the chain's JSON-RPC server, service name "avm".
func (vm *VM) newHandler() http.Handler {
	s := &service{vm: vm}
	s.chain = address.Chain{Alias: chainAlias, IsChain: s.isThisChain, HRP: vm.hrp}
	srv := jsonrpc.NewServer("avm", vm.log)
	chainapi.Register(srv, txChain{vm.state, vm}, s.texts(), txlog.New(vm.log, vm.clock, txlog.DefaultPerSecond))
	utxopage.Register(srv, utxoChain{vm.state, s})
	jsonrpc.Register(srv, "getAssetDescription", s.GetAssetDescription)
	jsonrpc.Register(srv, "getBalance", s.GetBalance)
	jsonrpc.Register(srv, "getAllBalances", s.GetAllBalances)
	jsonrpc.Register(srv, "getTxFee", s.GetTxFee)
	return srv
}

// internal logs an internal failure of method and returns the client's text.
func (s *service) internal(method string, err error) error {
	s.vm.log.Error("avm call failed", "method", method, "err", err)
	return errInternal
}

// txChain is the X-Chain as chainapi.Register reads it, in the texts of the avm service: its
// accepted state answers Tx, Block, BlockIDAt and LastHeight, and the VM's Intake ParseTx,
// IssueTx and PushTx, whose errors are the client's texts, raw.
type txChain struct {
	*state
	*VM
}

var _ chainapi.Chain[*txs.Tx, *txs.StandardBlock] = txChain{}

// TxStatus is "Accepted" for an accepted tx and "Unknown" for any other.
func (c txChain) TxStatus(id ids.ID) (string, error) {
	ok, err := c.HasTx(id)
	switch {
	case err != nil:
		return "", err
	case ok:
		return statusAccepted, nil
	}
	return statusUnknown, nil
}

func (c txChain) TxJSON(tx *txs.Tx) ([]byte, error) { return txs.TxJSON(tx, chainAlias, c.VM.hrp) }

func (c txChain) BlockJSON(blk *txs.StandardBlock) ([]byte, error) {
	return txs.BlockJSON(blk, chainAlias, c.VM.hrp)
}

// texts are the avm service's answers in the shared methods; a failure to render JSON is
// internal.
func (s *service) texts() chainapi.Texts {
	return chainapi.Texts{
		NilTxID:     errNilTxID,
		TxNotFound:  errNotFound,
		EncodeError: encodeError,
		JSONError:   func(method, _ string, err error) error { return s.internal(method, err) },
		Internal:    s.internal,
	}
}

// isThisChain reports whether alias names the X-Chain: "X", "avm" or its ID.
func (s *service) isThisChain(alias string) bool {
	return alias == chainAlias || alias == "avm" || alias == s.vm.rules.chainID.String()
}

// utxoChain is the X-Chain as utxopage.Serve reads it, in the texts of avm.getUTXOs; its accepted
// state answers UTXOIDs and UTXOBytes.
type utxoChain struct {
	*state
	s *service
}

var _ utxopage.Chain = utxoChain{}

// UTXOs implements utxopage.Chain: the X-Chain's own UTXOs, or with another chain as the source
// the atomic UTXOs it exported to the X-Chain.
func (c utxoChain) UTXOs(sourceChain string) (utxopage.Index, error) {
	return utxopage.OwnOrAtomic(utxopage.Own(c.Reader), c.s.isThisChain, c.s.vm.rules.chains, c.Shared(), sourceChain)
}

func (c utxoChain) ParseAddress(str string) (ids.ShortID, error) { return c.s.chain.ParseService(str) }

func (c utxoChain) FormatAddress(addr ids.ShortID) (string, error) {
	return address.Format(chainAlias, c.s.vm.hrp, addr)
}

func (c utxoChain) EncodeError(enc ids.Encoding, err error) error {
	return encodeError("utxo", enc, err)
}

func (c utxoChain) Internal(err error) error { return c.s.internal("getUTXOs", err) }

// lookupAsset resolves an asset alias ("AVAX") or ID.
func (s *service) lookupAsset(str string) (ids.ID, error) {
	if id, ok := s.vm.assetAliases[str]; ok {
		return id, nil
	}
	id, err := ids.FromString(str)
	if err != nil {
		return ids.ID{}, unknownAssetError(str)
	}
	return id, nil
}

// GetAssetDescription returns the name, symbol and denomination of an asset.
func (s *service) GetAssetDescription(_ context.Context, args *api.GetAssetDescriptionArgs) (*api.GetAssetDescriptionReply, error) {
	assetID, err := s.lookupAsset(args.AssetID)
	if err != nil {
		return nil, err
	}
	tx, found, err := s.vm.state.Tx(assetID)
	switch {
	case err != nil:
		return nil, s.internal("getAssetDescription", err)
	case !found:
		return nil, errNotFound
	}
	ca, ok := tx.Unsigned().(*txs.CreateAssetTx)
	if !ok {
		return nil, errNotAsset
	}
	return &api.GetAssetDescriptionReply{
		AssetID:      assetID,
		Name:         ca.Name,
		Symbol:       ca.Symbol,
		Denomination: jsonrpc.Uint8(ca.Denomination),
	}, nil
}

// ownedUTXO is a TransferOutput UTXO an address owns.
type ownedUTXO struct {
	ux  *txs.UTXO
	out *secp256k1fx.TransferOutput
}

// owned returns the TransferOutput UTXOs addr owns, in UTXO ID order. Without includePartial,
// only those addr can spend alone and now: threshold at most 1 and no locktime ahead.
func (s *service) owned(ctx context.Context, method string, addr ids.ShortID, includePartial bool) ([]ownedUTXO, error) {
	now := s.vm.now()
	// The index and the UTXOs it names, every page, from one state: a tx spending addr's UTXO
	// and paying change back to addr, accepted between two reads, would otherwise drop both.
	st, release := s.vm.state.Pinned()
	defer release()
	var (
		out   []ownedUTXO
		start ids.ID
	)
	for {
		page, err := st.UTXOIDs(addr, start, utxopage.MaxPageSize)
		if err != nil {
			return nil, s.internal(method, err)
		}
		for _, id := range page {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			ux, found, err := st.UTXO(id)
			switch {
			case err != nil:
				return nil, s.internal(method, err)
			case !found:
				return nil, s.internal(method, fmt.Errorf("utxo %s of %s is missing", id, addr))
			}
			to, ok := ux.Out.(*secp256k1fx.TransferOutput)
			if !ok {
				continue
			}
			if !includePartial && (to.Locktime > now || to.Threshold > 1) {
				continue
			}
			out = append(out, ownedUTXO{ux: ux, out: to})
		}
		if len(page) < utxopage.MaxPageSize {
			return out, nil
		}
		start = page[len(page)-1]
	}
}

// GetBalance returns how much of an asset an address holds, and in which UTXOs.
func (s *service) GetBalance(ctx context.Context, args *api.GetBalanceArgs) (*api.GetBalanceReply, error) {
	addr, err := s.chain.ParseService(args.Address)
	if err != nil {
		return nil, err
	}
	assetID, err := s.lookupAsset(args.AssetID)
	if err != nil {
		return nil, err
	}
	owned, err := s.owned(ctx, "getBalance", addr, args.IncludePartial)
	if err != nil {
		return nil, err
	}
	reply := &api.GetBalanceReply{UTXOIDs: make([]chainapi.UTXORef, 0)}
	var total uint64
	for _, o := range owned {
		if o.ux.AssetID != assetID {
			continue
		}
		if total+o.out.Amount < total {
			return nil, utxo.ErrOverflow
		}
		total += o.out.Amount
		reply.UTXOIDs = append(reply.UTXOIDs, chainapi.UTXORef{TxID: o.ux.TxID, OutputIndex: o.ux.OutputIndex})
	}
	reply.Balance = jsonrpc.Uint64(total)
	return reply, nil
}

// GetAllBalances returns an address's balance of every asset it holds: the genesis assets
// (AVAX) first, then the others in asset ID order (the reference's order is a map's:
// unspecified).
func (s *service) GetAllBalances(ctx context.Context, args *api.GetAllBalancesArgs) (*api.GetAllBalancesReply, error) {
	addr, err := s.chain.ParseService(args.Address)
	if err != nil {
		return nil, err
	}
	owned, err := s.owned(ctx, "getAllBalances", addr, args.IncludePartial)
	if err != nil {
		return nil, err
	}
	totals := make(map[ids.ID]uint64)
	for _, o := range owned {
		sum := totals[o.ux.AssetID] + o.out.Amount
		if sum < o.out.Amount {
			return nil, utxo.ErrOverflow
		}
		totals[o.ux.AssetID] = sum
	}
	assets := make([]ids.ID, 0, len(totals))
	for id := range totals {
		assets = append(assets, id)
	}
	slices.SortFunc(assets, func(a, b ids.ID) int {
		_, aliasedA := s.vm.assetNames[a]
		_, aliasedB := s.vm.assetNames[b]
		switch {
		case aliasedA && !aliasedB:
			return -1
		case aliasedB && !aliasedA:
			return 1
		}
		return a.Compare(b)
	})
	reply := &api.GetAllBalancesReply{Balances: make([]api.Balance, 0, len(assets))}
	for _, id := range assets {
		name, ok := s.vm.assetNames[id]
		if !ok {
			name = id.String()
		}
		reply.Balances = append(reply.Balances, api.Balance{AssetID: name, Balance: jsonrpc.Uint64(totals[id])})
	}
	return reply, nil
}

// GetTxFee returns the static fees (§6.3).
func (s *service) GetTxFee(context.Context, *struct{}) (*api.GetTxFeeReply, error) {
	return &api.GetTxFeeReply{
		TxFee:            jsonrpc.Uint64(s.vm.rules.txFee),
		CreateAssetTxFee: jsonrpc.Uint64(s.vm.rules.createAssetTxFee),
	}, nil
}
