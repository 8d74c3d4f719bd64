package config

// TxFees are the transaction fees of a network in nAVAX, in the order info.getTxFee lists them
// (node-api.md §3.9). Only TxFee and CreateAssetTxFee depend on configuration; the rest are fixed
// per network.
type TxFees struct {
	TxFee                         uint64
	CreateAssetTxFee              uint64
	CreateSubnetTxFee             uint64
	TransformSubnetTxFee          uint64
	CreateBlockchainTxFee         uint64
	AddPrimaryNetworkValidatorFee uint64
	AddPrimaryNetworkDelegatorFee uint64
	AddSubnetValidatorFee         uint64
	AddSubnetDelegatorFee         uint64
}

// Fee amounts of node-api.md §3.9, in nAVAX (1 AVAX = 1e9 nAVAX).
const (
	milliAVAX = 1_000_000
	avax      = 1_000 * milliAVAX

	// defaultTxFee is the default of --tx-fee and --create-asset-tx-fee on networks other than
	// mainnet and fuji.
	defaultTxFee = milliAVAX
)

// TxFeesFor returns the fees of a network. Mainnet and fuji take TxFee and CreateAssetTxFee
// from their genesis and ignore txFee and createAssetTxFee, as the reference node ignores
// --tx-fee and --create-asset-tx-fee there; every other network uses the two given values.
// Adding a Primary Network validator or delegator costs nothing on every network, so those two
// fields are always 0.
func TxFeesFor(networkID uint32, txFee, createAssetTxFee uint64) TxFees {
	switch networkID {
	case MainnetID:
		return TxFees{
			TxFee:                 milliAVAX,
			CreateAssetTxFee:      10 * milliAVAX,
			CreateSubnetTxFee:     avax,
			TransformSubnetTxFee:  10 * avax,
			CreateBlockchainTxFee: avax,
			AddSubnetValidatorFee: milliAVAX,
			AddSubnetDelegatorFee: milliAVAX,
		}
	case FujiID:
		return TxFees{
			TxFee:                 milliAVAX,
			CreateAssetTxFee:      10 * milliAVAX,
			CreateSubnetTxFee:     100 * milliAVAX,
			TransformSubnetTxFee:  avax,
			CreateBlockchainTxFee: 100 * milliAVAX,
			AddSubnetValidatorFee: milliAVAX,
			AddSubnetDelegatorFee: milliAVAX,
		}
	default:
		return TxFees{
			TxFee:                 txFee,
			CreateAssetTxFee:      createAssetTxFee,
			CreateSubnetTxFee:     100 * milliAVAX,
			TransformSubnetTxFee:  100 * milliAVAX,
			CreateBlockchainTxFee: 100 * milliAVAX,
			AddSubnetValidatorFee: milliAVAX,
			AddSubnetDelegatorFee: milliAVAX,
		}
	}
}
