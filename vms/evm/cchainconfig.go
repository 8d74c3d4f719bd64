package evm

import (
	"encoding/json"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// cChainConfig renders eth_getChainConfig on the C-Chain (l1-evm.md §8): the plain chain
// config, without the "upgrades" an L1 adds. Its keys, sorted as the reference's merged JSON
// comes out: the chain ID and the genesis's DAO fork keys, the Ethereum block forks at 0,
// shanghaiTime and cancunTime at Durango's and Etna's times (as an L1's, l1-evm.md §4.3), the
// genesis's eip150Hash (the spec keeps it, reference/README.md), and the Avalanche upgrade
// times of the network's schedule u by the reference's C-Chain names, in unix seconds.
func cChainConfig(genesis []byte, chainID *big.Int, u config.Upgrades) (json.RawMessage, error) {
	var g struct {
		Config struct {
			DAOForkBlock   *big.Int    `json:"daoForkBlock"`
			DAOForkSupport bool        `json:"daoForkSupport"`
			EIP150Hash     common.Hash `json:"eip150Hash"`
		} `json:"config"`
	}
	if err := json.Unmarshal(genesis, &g); err != nil {
		return nil, fmt.Errorf("decode genesis config: %w", err)
	}
	m := map[string]any{
		"chainId":      chainID,
		"eip150Hash":   g.Config.EIP150Hash,
		"shanghaiTime": unixSeconds(u.DurangoTime),
		"cancunTime":   unixSeconds(u.EtnaTime),
	}
	for _, k := range l1params.BlockForkKeys {
		m[k] = 0
	}
	if g.Config.DAOForkBlock != nil {
		m["daoForkBlock"] = g.Config.DAOForkBlock
	}
	if g.Config.DAOForkSupport {
		m["daoForkSupport"] = true
	}
	for k, t := range map[string]time.Time{
		"apricotPhase1BlockTimestamp":     u.ApricotPhase1Time,
		"apricotPhase2BlockTimestamp":     u.ApricotPhase2Time,
		"apricotPhase3BlockTimestamp":     u.ApricotPhase3Time,
		"apricotPhase4BlockTimestamp":     u.ApricotPhase4Time,
		"apricotPhase5BlockTimestamp":     u.ApricotPhase5Time,
		"apricotPhasePre6BlockTimestamp":  u.ApricotPhasePre6Time,
		"apricotPhase6BlockTimestamp":     u.ApricotPhase6Time,
		"apricotPhasePost6BlockTimestamp": u.ApricotPhasePost6Time,
		"banffBlockTimestamp":             u.BanffTime,
		"cortinaBlockTimestamp":           u.CortinaTime,
		"durangoBlockTimestamp":           u.DurangoTime,
		"etnaTimestamp":                   u.EtnaTime,
		"fortunaTimestamp":                u.FortunaTime,
		"graniteTimestamp":                u.GraniteTime,
		"heliconTimestamp":                u.HeliconTime,
	} {
		m[k] = unixSeconds(t)
	}
	b, err := json.Marshal(m) // a map's keys come out sorted
	if err != nil {
		return nil, fmt.Errorf("encode chain config: %w", err)
	}
	return b, nil
}
