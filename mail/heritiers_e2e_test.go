package mail

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/games/heritiers"
)

// checkHenri checks that a solo game's record holds Henri's moves, played
// by the game, and none in a 2-player game. (TestEmbeddedGames plays both
// modes on the embedded servers.)
func checkHenri(t *testing.T, res *DemoResult, players int) {
	t.Helper()
	henri := 0
	for _, mv := range res.Record.Moves {
		if mv.Player == heritiers.Henri {
			henri++
			if mv.Source != adjudicator.AutomatonSource {
				t.Errorf("Henri's move %q has source %q, want %q", mv.Text, mv.Source, adjudicator.AutomatonSource)
			}
		}
	}
	if (henri > 0) != (players == 1) {
		t.Errorf("%d moves of Henri's in a %d-player game", henri, players)
	}
}

// TestRealmailHeritiersSolo plays a solo game of Les Deux Héritiers
// against Henri by mail through a real Postfix and Dovecot (run it under
// flock /tmp/herald-realmail.lock, see COMMON.md).
func TestRealmailHeritiersSolo(t *testing.T) {
	needRealmail(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg := adjudicator.NewRegistry(heritiers.Game)
	svc, err := NewService(Config{Address: "herald@herald.test", Registry: reg, Store: st, Logger: testLogger(t),
		NewSeed: func() string { return "realmail-heritiers" }})
	if err != nil {
		t.Fatal(err)
	}
	out := NewOutbox(OutboxConfig{Server: Server{Addr: realSMTP, Security: Plain, Username: "herald@herald.test", Password: "herald-pw"},
		Every: time.Second}, svc)
	in := NewIntake(IntakeConfig{Server: Server{Addr: realIMAP, Security: Plain, Username: "herald@herald.test", Password: "herald-pw"},
		Handled: func(Outcome) { out.Kick() }}, svc)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 2)
	go func() { done <- in.Run(runCtx) }()
	go func() { done <- out.Run(runCtx) }()
	defer func() {
		stop()
		<-done
		<-done
	}()
	players := []string{"alice@herald.test"}
	res, err := RunDemo(ctx, DemoConfig{
		Game: "heritiers", Players: players, Host: "dave@herald.test", Herald: "herald@herald.test",
		Options:  map[string]string{"level": "2"},
		Password: func(a string) string { name, _, _ := strings.Cut(a, "@"); return name + "-pw" },
		IMAPAddr: realIMAP, SMTPAddr: realSMTP, Seed: "realmail-heritiers", Timeout: 150 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	checkDemo(t, reg, res, players)
	checkHenri(t, res, 1)
}
