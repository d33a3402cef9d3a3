package games_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// TestPositionFunctionsShort keeps every function of the games' position
// code at 100 lines at most (issue 27): a loader reads its document in
// small passes, one function each, so that a new field is one more small
// pass rather than another branch of a long function.
func TestPositionFunctionsShort(t *testing.T) {
	files, err := filepath.Glob("*/position.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 4 {
		t.Fatalf("position.go of %d games, want 4: %v", len(files), files)
	}
	fset := token.NewFileSet()
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > 100 {
				t.Errorf("%s: %s is %d lines, over 100", file, fd.Name.Name, n)
			}
		}
	}
}
