package api

import (
	"errors"
	"fmt"
)

// Texts written to HTTP clients. http.Error appends the trailing newline.
const (
	// textInvalidHost is the 403 body for a Host that is not allowed (node-api.md §1.5, §2.2 item 3).
	textInvalidHost = "invalid host specified"
	// textNotBootstrapped is the 503 body of a chain API called before the chain has finished
	// bootstrapping (node-api.md §1.5, §2.3, §7 item 21).
	textNotBootstrapped = "API call rejected because chain is not done bootstrapping"
)

// Errors returned to the code that sets the server up; they never reach an HTTP client.
var (
	// ErrDuplicateRoute is returned when a path is already served.
	ErrDuplicateRoute = errors.New("api: route already exists")
	// ErrInvalidRoute is returned for a route or alias path that is empty, starts or ends with a
	// slash, or is not clean (contains "//", "." or ".." elements).
	ErrInvalidRoute = errors.New("api: invalid route path")
	// ErrUnknownRoute is returned by AddAliases when no route exists at or under the path.
	ErrUnknownRoute = errors.New("api: no route at or under path")
	// ErrAlreadyListening is returned by Listen when the server is already bound.
	ErrAlreadyListening = errors.New("api: already listening")
	// ErrInvalidConfig wraps every problem found by Config.Validate.
	ErrInvalidConfig = errors.New("api: invalid config")
)

func duplicateRouteError(p string) error { return fmt.Errorf("%w: %s", ErrDuplicateRoute, p) }

func invalidRouteError(p string) error { return fmt.Errorf("%w: %q", ErrInvalidRoute, p) }

func unknownRouteError(p string) error { return fmt.Errorf("%w: %s", ErrUnknownRoute, p) }
