package chainstest

import (
	"context"
	"errors"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/storage"
)

// Arguments and replies of the "kv" service.
type (
	PutArgs struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	}
	PutReply struct {
		TxID ids.ID `json:"txID"`
	}
	GetArgs struct {
		Key string `json:"key"`
	}
	GetReply struct {
		Value string `json:"value"`
		Found bool   `json:"found"`
	}
	LastAcceptedReply struct {
		ID     ids.ID         `json:"id"`
		Height jsonrpc.Uint64 `json:"height"`
	}
	BlockArgs struct {
		Height jsonrpc.Uint64 `json:"height"`
	}
	BlockReply struct {
		ID ids.ID `json:"id"`
		// Bytes is the block in hexnc: "0x" + hex, no checksum.
		Bytes string `json:"bytes"`
	}
)

// newService returns the "kv" JSON-RPC service: kv.put, kv.get, kv.lastAccepted, kv.block.
func (vm *VM) newService() *jsonrpc.Server {
	s := jsonrpc.NewServer("kv", vm.log)
	jsonrpc.Register(s, "put", vm.put)
	jsonrpc.Register(s, "get", vm.get)
	jsonrpc.Register(s, "lastAccepted", vm.lastAcceptedCall)
	jsonrpc.Register(s, "block", vm.block)
	return s
}

// put queues a transaction writing args.Value at args.Key, as a block of its own: kv.put.
func (vm *VM) put(_ context.Context, args *PutArgs) (*PutReply, error) {
	tx := NewTx(args.Key, args.Value)
	if err := vm.Submit(tx); err != nil {
		return nil, err
	}
	return &PutReply{TxID: tx.id}, nil
}

// get reads a key of the accepted state: kv.get.
func (vm *VM) get(_ context.Context, args *GetArgs) (*GetReply, error) {
	v, err := vm.State(args.Key)
	switch {
	case errors.Is(err, storage.ErrNotFound) && args.Key == "genesis":
		return &GetReply{Value: vm.genesis.txs[0].Value, Found: true}, nil
	case errors.Is(err, storage.ErrNotFound):
		return &GetReply{}, nil
	case err != nil:
		return nil, err
	}
	return &GetReply{Value: v, Found: true}, nil
}

// lastAcceptedCall returns the last accepted block: kv.lastAccepted. It reads the committed
// pointer, as kv.get reads the committed state, so that a caller who saw a block's writes also
// sees the block here (VM.Accepted, which moves vm.last, runs just after the commit).
func (vm *VM) lastAcceptedCall(context.Context, *struct{}) (*LastAcceptedReply, error) {
	last := vm.genesis
	b, err := vm.db.Get(LastKey())
	switch {
	case errors.Is(err, storage.ErrNotFound):
	case err != nil:
		return nil, err
	default:
		if last, err = vm.getAccepted(ids.ID(b)); err != nil {
			return nil, err
		}
	}
	return &LastAcceptedReply{ID: last.id, Height: jsonrpc.Uint64(last.height)}, nil
}

// block returns the accepted block at args.Height: kv.block.
func (vm *VM) block(_ context.Context, args *BlockArgs) (*BlockReply, error) {
	id, err := vm.GetBlockIDAtHeight(context.Background(), uint64(args.Height))
	if errors.Is(err, chains.ErrBlockNotFound) {
		return nil, ErrNoBlock
	}
	if err != nil {
		return nil, err
	}
	blk, err := vm.getAccepted(id)
	if err != nil {
		return nil, err
	}
	enc, err := ids.HexNC.Encode(blk.bytes)
	if err != nil {
		return nil, err
	}
	return &BlockReply{ID: blk.id, Bytes: enc}, nil
}
