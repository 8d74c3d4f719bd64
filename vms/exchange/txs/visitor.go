package txs

// Visitor does one job for every X-Chain tx kind: it has one method per kind, and each kind's
// Visit calls its own. The jobs a kind needs (the UTXOs it creates and its JSON form here, its
// checks and fee in the VM) each implement Visitor, so adding a kind to this interface fails to
// compile until every job has its case.
type Visitor interface {
	BaseTx(tx *BaseTx) error
	CreateAssetTx(tx *CreateAssetTx) error
	OperationTx(tx *OperationTx) error
	ImportTx(tx *ImportTx) error
	ExportTx(tx *ExportTx) error
}
