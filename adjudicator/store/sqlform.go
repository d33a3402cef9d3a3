package store

import "github.com/heraldgames/herald/adjudicator/store/internal/sqlform"

// The SQLite store writes stamps, revisions and record headers as the
// PostgreSQL store does (package sqlform): herald migrate copies its rows
// as they are.
const stampLayout = sqlform.StampLayout

var (
	stamp         = sqlform.Stamp
	newRev        = sqlform.NewRev
	marshalHeader = sqlform.MarshalHeader
)
