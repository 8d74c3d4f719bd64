package config_test

import (
	"encoding/json"
	"fmt"

	"github.com/cornice-node/cornice/config"
)

func ExampleParseNetworkID() {
	for _, s := range []string{"Fuji", "testnet", "12345", "network-99"} {
		id, err := config.ParseNetworkID(s)
		if err != nil {
			panic(err)
		}
		fmt.Println(s, "→", id, config.NetworkName(id))
	}
	_, err := config.ParseNetworkID("moon")
	fmt.Println(err)
	// Output:
	// Fuji → 5 fuji
	// testnet → 5 fuji
	// 12345 → 12345 local
	// network-99 → 99 network-99
	// failed to parse network name: "moon"
}

func ExampleSettings() {
	cfg := config.Default()
	for _, s := range config.Settings() {
		if s.Name == "http-port" {
			if err := s.Bind(&cfg).Set("9700"); err != nil {
				panic(err)
			}
		}
	}
	fmt.Println(cfg.HTTPPort)
	// Output: 9700
}

func ExampleUpgradesFor() {
	u := config.UpgradesFor(config.LocalID)
	b, err := json.Marshal(struct {
		Helicon any `json:"heliconTime"`
		Epoch   any `json:"graniteEpochDuration"`
	}{u.HeliconTime, u.GraniteEpochDuration})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	// Output: {"heliconTime":"9999-12-01T00:00:00Z","graniteEpochDuration":30000000000}
}
