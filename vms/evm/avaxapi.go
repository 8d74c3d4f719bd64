package evm

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/evm/atomic"
	"github.com/cornice-node/cornice/vms/internal/chainapi"
	"github.com/cornice-node/cornice/vms/internal/utxopage"
)

// Statuses of avax.getAtomicTxStatus, the reference's words.
const (
	atomicAccepted   = "Accepted"
	atomicProcessing = "Processing"
	atomicDropped    = "Dropped"
	atomicUnknown    = "Unknown"
)

// avaxService is the C-Chain's avax API at /ext/bc/C/avax: atomic txs and the atomic UTXOs other
// chains exported to the C-Chain (the reference's AvaxAPI).
type avaxService struct {
	vm    *VM
	addrs address.Chain
}

// avaxHandler returns the avax service's JSON-RPC server.
func (vm *VM) avaxHandler() *jsonrpc.Server {
	chainID, networkID := vm.atomic.ctx.ChainID, vm.atomic.ctx.NetworkID
	s := &avaxService{vm: vm, addrs: address.Chain{
		Alias:   "C",
		IsChain: func(alias string) bool { return alias == "C" || alias == "evm" || alias == chainID.String() },
		HRP:     address.HRP(networkID),
	}}
	srv := jsonrpc.NewServer("avax", vm.log)
	jsonrpc.Register(srv, "issueTx", s.issueTx)
	jsonrpc.Register(srv, "getAtomicTxStatus", s.getAtomicTxStatus)
	jsonrpc.Register(srv, "getAtomicTx", s.getAtomicTx)
	jsonrpc.RegisterHeavy(srv, "getUTXOs", s.getUTXOs)
	return srv
}

func (s *avaxService) issueTx(_ context.Context, args *chainapi.IssueTxArgs) (*chainapi.TxIDReply, error) {
	b, err := args.Encoding.Decode(args.Tx)
	if err != nil {
		return nil, chainapi.DecodeTxError(err)
	}
	tx, err := atomic.ParseTx(b)
	if err != nil {
		return nil, fmt.Errorf("problem parsing transaction: %w", err)
	}
	if err := s.vm.IssueAtomicTx(tx); err != nil {
		return nil, err
	}
	return &chainapi.TxIDReply{TxID: tx.ID()}, nil
}

// atomicTxStatusReply is the result of getAtomicTxStatus: blockHeight only when accepted.
type atomicTxStatusReply struct {
	Status      string          `json:"status"`
	BlockHeight *jsonrpc.Uint64 `json:"blockHeight,omitempty"`
}

func (s *avaxService) getAtomicTxStatus(_ context.Context, args *chainapi.GetTxStatusArgs) (*atomicTxStatusReply, error) {
	if args.TxID == ids.Empty {
		return nil, errNilTxID
	}
	_, status, height, err := s.vm.atomicTx(args.TxID)
	if err != nil {
		return nil, err
	}
	reply := &atomicTxStatusReply{Status: status}
	if status == atomicAccepted {
		h := jsonrpc.Uint64(height)
		reply.BlockHeight = &h
	}
	return reply, nil
}

// atomicTxReply is the result of getAtomicTx: the signed tx in a hex encoding (there is no JSON
// form), and blockHeight only when accepted.
type atomicTxReply struct {
	Tx          string          `json:"tx"`
	Encoding    ids.Encoding    `json:"encoding"`
	BlockHeight *jsonrpc.Uint64 `json:"blockHeight,omitempty"`
}

func (s *avaxService) getAtomicTx(_ context.Context, args *chainapi.GetTxArgs) (*atomicTxReply, error) {
	if args.TxID == ids.Empty {
		return nil, errNilTxID
	}
	tx, status, height, err := s.vm.atomicTx(args.TxID)
	if err != nil {
		return nil, err
	}
	if status == atomicUnknown {
		return nil, couldNotFindTxError(args.TxID)
	}
	str, err := args.Encoding.Encode(tx.Bytes())
	if err != nil {
		return nil, err
	}
	reply := &atomicTxReply{Tx: str, Encoding: args.Encoding}
	if status == atomicAccepted {
		h := jsonrpc.Uint64(height)
		reply.BlockHeight = &h
	}
	return reply, nil
}

// getUTXOs lists the UTXOs sourceChain exported to the C-Chain that the addresses own, as the
// X- and P-Chains page theirs (package utxopage).
func (s *avaxService) getUTXOs(ctx context.Context, args *chainapi.GetUTXOsArgs) (*chainapi.GetUTXOsReply, error) {
	switch n := len(args.Addresses); {
	case n == 0:
		return nil, errNoAddresses
	case n > utxopage.MaxAddresses:
		return nil, fmt.Errorf("number of addresses given, %d, exceeds maximum, %d", n, utxopage.MaxAddresses)
	case args.SourceChain == "":
		return nil, errNoSourceChain
	}
	a := s.vm.atomic
	source, ok := a.lookupPeer(args.SourceChain)
	if !ok {
		return nil, fmt.Errorf("problem parsing source chainID %q: there is no ID with alias: %s", args.SourceChain, args.SourceChain)
	}
	addrs, err := utxopage.ParseAddresses(s.addrs.ParseService, args.Addresses)
	if err != nil {
		return nil, err
	}
	var (
		startAddr ids.ShortID
		startUTXO ids.ID
	)
	if args.StartIndex.Address != "" || args.StartIndex.UTXO != "" {
		if startAddr, err = s.addrs.ParseService(args.StartIndex.Address); err != nil {
			return nil, fmt.Errorf("couldn't parse start index address %q: %w", args.StartIndex.Address, err)
		}
		if startUTXO, err = ids.FromString(args.StartIndex.UTXO); err != nil {
			return nil, fmt.Errorf("couldn't parse start index utxo: %w", err)
		}
	}
	limit := int(args.Limit)
	if limit <= 0 || limit > utxopage.MaxPageSize {
		limit = utxopage.MaxPageSize
	}
	page, err := utxopage.Walk(ctx, atomicUTXOs{shared: a.shared, peer: source, enc: args.Encoding}, addrs, startAddr, startUTXO, limit)
	if err != nil {
		return nil, fmt.Errorf("problem retrieving UTXOs: %w", err)
	}
	endAddr, err := address.Format("C", s.addrs.HRP, page.LastAddr)
	if err != nil {
		return nil, fmt.Errorf("problem formatting address: %w", err)
	}
	return &chainapi.GetUTXOsReply{
		NumFetched: jsonrpc.Uint64(len(page.UTXOs)),
		UTXOs:      page.UTXOs,
		EndIndex:   chainapi.Index{Address: endAddr, UTXO: page.LastUTXO.String()},
		Encoding:   args.Encoding,
	}, nil
}

// lookupPeer resolves a sourceChain: the X- or P-Chain by alias or ID.
func (a *atomicSide) lookupPeer(alias string) (ids.ID, bool) {
	switch alias {
	case "X", "avm", a.xChain.String():
		return a.xChain, true
	case "P", "platform", a.ctx.PChainID.String():
		return a.ctx.PChainID, true
	}
	return ids.ID{}, false
}

// atomicUTXOs is the utxopage.Store of the UTXOs peer exported to the C-Chain, each rendered in
// enc.
type atomicUTXOs struct {
	shared sharedMemory
	peer   ids.ID
	enc    ids.Encoding
}

func (s atomicUTXOs) UTXOIDs(addr ids.ShortID, start ids.ID, n int) ([]ids.ID, error) {
	return s.shared.Keys(s.peer, addr, start, n)
}

func (s atomicUTXOs) UTXO(id ids.ID) (string, bool, error) {
	values, err := s.shared.Get(s.peer, []ids.ID{id})
	if err != nil {
		return "", false, err
	}
	str, err := s.enc.Encode(values[0])
	if err != nil {
		return "", false, fmt.Errorf("problem encoding utxo: %w", err)
	}
	return str, true, nil
}

// IssueAtomicTx verifies tx against the last accepted state, at the next block's base fee, and
// adds it to the atomic mempool; a tx already pending is not an error. The errors are the
// reference's texts.
func (vm *VM) IssueAtomicTx(tx *atomic.Tx) error {
	a := vm.atomic
	if _, dropped, ok := a.pool.get(tx.ID()); ok && !dropped {
		return nil
	}
	head := vm.currentHead()
	st, err := vm.stateAt(head.Root())
	if err != nil {
		return err
	}
	if err := a.verifyAtomic(tx, vm.nextBaseFee(head), st, vm.now()); err != nil {
		return err
	}
	burned, _ := tx.Burned(a.ctx.AVAXAssetID) // verifyAtomic checked it
	if err := a.pool.add(tx, burned/tx.GasUsed()); err != nil {
		return err
	}
	vm.signal()
	return nil
}

// atomicTx returns an atomic tx, its status and, when accepted, its block's height.
func (vm *VM) atomicTx(id ids.ID) (*atomic.Tx, string, uint64, error) {
	rec, err := vm.kv.Get(atomicTxKey(id))
	switch {
	case err == nil && len(rec) > 8:
		tx, err := atomic.ParseTx(rec[8:])
		if err != nil {
			return nil, "", 0, fmt.Errorf("accepted atomic tx %s: %w", id, err)
		}
		return tx, atomicAccepted, binary.BigEndian.Uint64(rec), nil
	case err != nil && !errors.Is(err, storage.ErrNotFound):
		return nil, "", 0, err
	}
	tx, dropped, ok := vm.atomic.pool.get(id)
	switch {
	case !ok:
		return nil, atomicUnknown, 0, nil
	case dropped:
		return tx, atomicDropped, 0, nil
	}
	return tx, atomicProcessing, 0, nil
}
