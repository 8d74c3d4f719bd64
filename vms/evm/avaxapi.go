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
	"github.com/cornice-node/cornice/vms/chainapi"
	"github.com/cornice-node/cornice/vms/evm/atomic"
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
// X- and P-Chains page theirs (utxopage.Serve).
func (s *avaxService) getUTXOs(ctx context.Context, args *chainapi.GetUTXOsArgs) (*chainapi.GetUTXOsReply, error) {
	return utxopage.Serve(ctx, atomicUTXOChain{s}, args)
}

// atomicUTXOChain is the C-Chain's utxopage.Chain: it has no UTXOs of its own, only those the X-
// and P-Chains exported to it, so getUTXOs must name a sourceChain.
type atomicUTXOChain struct{ s *avaxService }

func (c atomicUTXOChain) UTXOs(sourceChain string) (utxopage.Index, error) {
	if sourceChain == "" {
		return nil, errNoSourceChain
	}
	a := c.s.vm.atomic
	source, ok := a.lookupPeer(sourceChain)
	if !ok {
		return nil, fmt.Errorf("problem parsing source chainID %q: there is no ID with alias: %s", sourceChain, sourceChain)
	}
	return utxopage.AtomicFrom(a.shared, source), nil
}

func (c atomicUTXOChain) ParseAddress(str string) (ids.ShortID, error) {
	return c.s.addrs.ParseService(str)
}

func (c atomicUTXOChain) FormatAddress(addr ids.ShortID) (string, error) {
	s, err := address.Format("C", c.s.addrs.HRP, addr)
	if err != nil {
		return "", fmt.Errorf("problem formatting address: %w", err)
	}
	return s, nil
}

func (atomicUTXOChain) EncodeError(_ ids.Encoding, err error) error {
	return fmt.Errorf("problem encoding utxo: %w", err)
}

func (atomicUTXOChain) Internal(err error) error {
	return fmt.Errorf("problem retrieving UTXOs: %w", err)
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
	return atomicTxStatus(id, vm.atomic.pool.get, vm.kv.Get)
}

// atomicTxStatus is atomicTx over the mempool's get and the database's. It reads the mempool
// first: a tx leaves it only after its block's commit is published (VM.Accepted), so a tx no longer
// in it by then is found accepted. Read the other way round, a block accepted between the two
// reads made its tx unknown: not accepted yet at the first, no longer pending at the second.
func atomicTxStatus(id ids.ID, pooled func(ids.ID) (*atomic.Tx, bool, bool), get func([]byte) ([]byte, error)) (*atomic.Tx, string, uint64, error) {
	tx, dropped, ok := pooled(id)
	rec, err := get(atomicTxKey(id))
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
	switch {
	case !ok:
		return nil, atomicUnknown, 0, nil
	case dropped:
		return tx, atomicDropped, 0, nil
	}
	return tx, atomicProcessing, 0, nil
}
