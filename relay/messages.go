package relay

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/cornice-node/cornice/icm"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/evm/precompile"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/payload"
)

// sent is a Teleporter message found in a block: the Warp message a messenger sent and the
// TeleporterMessage it carries.
type sent struct {
	tx         common.Hash
	messenger  common.Address
	msg        *warp.UnsignedMessage
	teleporter *icm.Message
}

// sentMessages returns the Teleporter messages among logs, in order: each SendWarpMessage
// whose sender emitted SendCrossChainMessage in the same transaction (the messenger's two
// logs), and whose payload is a TeleporterMessage. Anything else is passed over.
func sentMessages(logs []types.Log) []sent {
	messengers := make(map[common.Hash]map[common.Address]bool)
	sendTopic := icm.SendCrossChainMessageTopic()
	for _, l := range logs {
		if len(l.Topics) > 0 && l.Topics[0] == sendTopic {
			if messengers[l.TxHash] == nil {
				messengers[l.TxHash] = make(map[common.Address]bool)
			}
			messengers[l.TxHash][l.Address] = true
		}
	}
	var out []sent
	warpTopic := precompile.SendWarpMessageTopic()
	for _, l := range logs {
		if l.Address != l1params.WarpAddress || len(l.Topics) != 3 || l.Topics[0] != warpTopic {
			continue
		}
		sender := common.BytesToAddress(l.Topics[1][12:])
		if !messengers[l.TxHash][sender] {
			continue
		}
		msg, err := precompile.SentWarpMessage(l.Data)
		if err != nil {
			continue
		}
		p, err := payload.Parse(msg.Payload)
		if err != nil {
			continue
		}
		call, ok := p.(*payload.AddressedCall)
		if !ok {
			continue
		}
		m, err := icm.DecodeMessage(call.Payload)
		if err != nil {
			continue
		}
		out = append(out, sent{tx: l.TxHash, messenger: sender, msg: msg, teleporter: m})
	}
	return out
}
