package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/components/utxo"
)

// UTXO is an unspent output of the P-Chain: a TransferOutput, or a LockOut wrapping one (§2.2).
type UTXO = utxo.UTXO[Output, outputKinds]

// outputKinds encodes a UTXO's output with this chain's output type IDs.
type outputKinds struct{}

func (outputKinds) Write(p *codec.Packer, out Output) { outputs.Write(p, out) }
func (outputKinds) Read(u *codec.Unpacker) Output     { return outputs.Read(u) }

// ParseUTXO decodes UTXO bytes written by Bytes. It copies b.
func ParseUTXO(b []byte) (*UTXO, error) {
	return utxo.Parse[Output, outputKinds](codec.NewUnpackerCopy(b, codec.MaxSize))
}
