package admin

// AliasChainArgs are the params of admin.aliasChain.
type AliasChainArgs struct {
	// Chain is the chain's ID or one of its aliases.
	Chain string `json:"chain"`
	// Alias is the new alias.
	Alias string `json:"alias"`
}

// EmptyReply is the result of methods that return nothing: {}.
type EmptyReply struct{}

// GetChainAliasesArgs are the params of admin.getChainAliases.
type GetChainAliasesArgs struct {
	// Chain is the chain's ID (CB58) or one of its aliases.
	Chain string `json:"chain"`
}

// GetChainAliasesReply is the result of admin.getChainAliases.
type GetChainAliasesReply struct {
	// Aliases is never null: a chain without aliases gives [].
	Aliases []string `json:"aliases"`
}
