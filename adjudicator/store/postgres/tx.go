package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store/internal/sqlform"
	"github.com/jackc/pgx/v5"
)

// Tx is the transaction of one request (host.Tx). Everything done through
// it commits with the request's identity, or not at all. Its statements
// run without the caller's cancellation, as the batch's do.
type Tx struct {
	b       *Batch
	now     time.Time
	outcome string
	gameID  int64
	// recent are the outbox_shared rows the request inserted last (see
	// Queue).
	recent sqlform.RecentShared
}

var _ host.Tx = (*Tx)(nil)

// q is the batch's transaction.
func (t *Tx) q() pgx.Tx { return t.b.tx }

// SetOutcome records what became of the request and the game it concerned.
func (t *Tx) SetOutcome(outcome string, gameID int64) {
	t.outcome, t.gameID = outcome, gameID
}

// CreateGame stores a new game and returns its id.
func (t *Tx) CreateGame(ctx context.Context, hostAddr, hostKey string, rec *adjudicator.Record, players []host.Player) (int64, error) {
	ctx = context.WithoutCancel(ctx)
	data, err := marshalHeader(rec)
	if err != nil {
		return 0, err
	}
	var id int64
	err = t.q().QueryRow(ctx, `INSERT INTO games (game, host, host_key, record, status, created, updated, rev, moves) VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8) RETURNING id`,
		rec.Game, strings.ToLower(hostAddr), host.HashKey(hostKey), data, host.Playing, stamp(t.now), newRev(), len(rec.Moves)).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	if err := t.insertMoves(ctx, id, rec.Moves, 0); err != nil {
		return 0, err
	}
	for i, p := range players {
		if _, err := t.q().Exec(ctx, `INSERT INTO players (game_id, seat, name, address, secret, token) VALUES ($1, $2, $3, $4, $5, $6)`,
			id, i, p.Name, strings.ToLower(p.Address), host.HashKey(p.Secret), p.Token); err != nil {
			return 0, fmt.Errorf("store: %w", err)
		}
	}
	return id, nil
}

// Game reads a game inside the transaction, with its record, and locks
// it until the batch ends: another worker's request about the game waits.
func (t *Tx) Game(ctx context.Context, id int64) (*host.Game, error) {
	return readGame(context.WithoutCancel(ctx), t.q(), id, true, true)
}

// GameInfo reads a game inside the transaction without its record, and
// locks it; nil and no error when there is no game id.
func (t *Tx) GameInfo(ctx context.Context, id int64) (*host.Game, error) {
	g, err := readGame(context.WithoutCancel(ctx), t.q(), id, false, true)
	if errors.Is(err, host.ErrNoGame) {
		return nil, nil
	}
	return g, err
}

// Record reads the record of game id inside the transaction, and locks
// the game.
func (t *Tx) Record(ctx context.Context, id int64) (*adjudicator.Record, error) {
	ctx = context.WithoutCancel(ctx)
	var data []byte
	err := t.q().QueryRow(ctx, `SELECT record FROM games WHERE id = $1 FOR UPDATE`, id).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, host.NoGame(id)
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return readRecord(ctx, t.q(), id, data)
}

// readGame reads game id, with its record decoded when withRecord, the
// game's row locked FOR UPDATE when lock.
func readGame(ctx context.Context, q querier, id int64, withRecord, lock bool) (*host.Game, error) {
	g := &host.Game{ID: id}
	var data []byte
	var updated string
	var c struct {
		deadline, grace, vacation *int64
		remind, stage             *int
		policy, since, toMove     *string
		next                      *string
	}
	cols := `g.host, g.host_key, g.status, g.updated, g.rev, g.moves, g.observers_off, g.page_token, g.page, g.host_lang,
		c.deadline, c.grace, c.remind, c.policy, c.since, c.to_move, c.stage, c.next, c.vacation`
	dest := []any{&g.Host, &g.HostKey, &g.Status, &updated, &g.Rev, &g.Moves, &g.ObserversOff, &g.PageToken, &g.Page, &g.HostLang,
		&c.deadline, &c.grace, &c.remind, &c.policy, &c.since, &c.toMove, &c.stage, &c.next, &c.vacation}
	if withRecord {
		cols += `, g.record`
		dest = append(dest, &data)
	}
	query := `SELECT ` + cols + ` FROM games g LEFT JOIN clocks c ON c.game_id = g.id WHERE g.id = $1`
	if lock {
		query += ` FOR UPDATE OF g`
	}
	err := q.QueryRow(ctx, query, id).Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, host.NoGame(id)
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if c.deadline != nil && *c.deadline > 0 {
		g.Clock = &host.Clock{
			Deadline: time.Duration(*c.deadline) * time.Second, Grace: time.Duration(*c.grace) * time.Second,
			Remind: *c.remind, Policy: *c.policy, ToMove: *c.toMove, Stage: *c.stage,
			Vacation: time.Duration(*c.vacation) * time.Second,
			Since:    parseStamp(c.since), Next: parseStamp(c.next),
		}
	}
	g.Updated = parseStamp(&updated)
	if withRecord {
		if g.Record, err = readRecord(ctx, q, id, data); err != nil {
			return nil, err
		}
	}
	rows, err := q.Query(ctx, `SELECT name, address, secret, token, notify, told, digest_next, away_until, away_used, undeliverable, lang, mail_lang FROM players WHERE game_id = $1 ORDER BY seat`, id)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p host.Player
		var next, away *string
		var used int64
		if err := rows.Scan(&p.Name, &p.Address, &p.Secret, &p.Token, &p.Notify, &p.Told, &next, &away, &used, &p.Undeliverable, &p.Lang, &p.MailLang); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		p.AwayUsed = time.Duration(used) * time.Second
		p.AwayUntil, p.DigestNext = parseStamp(away), parseStamp(next)
		g.Players = append(g.Players, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return g, nil
}

// readRecord decodes the header data of game id's record and appends its
// moves.
func readRecord(ctx context.Context, q querier, id int64, data []byte) (*adjudicator.Record, error) {
	rec, err := adjudicator.ParseRecord(fmt.Sprintf("game %d", id), data)
	if err != nil {
		return nil, fmt.Errorf("store: game %d: %w", id, err)
	}
	rows, err := q.Query(ctx, `SELECT `+sqlform.MoveColumns+` FROM moves WHERE game_id = $1 ORDER BY n`, id)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	if err := sqlform.AppendMoves(rec, rows); err != nil {
		return nil, err
	}
	return rec, nil
}

// GamesOf returns the ids of the games, playing or not, that address plays
// in or hosts, newest first.
func (t *Tx) GamesOf(ctx context.Context, address string) ([]int64, error) {
	return t.ids(ctx, `SELECT id FROM games WHERE host = $1
		UNION SELECT game_id FROM players WHERE address = $1 ORDER BY 1 DESC`, strings.ToLower(address))
}

// PlayingGamesOf returns the ids of the games still playing that address
// plays in or hosts, newest first.
func (t *Tx) PlayingGamesOf(ctx context.Context, address string) ([]int64, error) {
	return t.ids(ctx, `SELECT DISTINCT g.id FROM games g LEFT JOIN players p ON p.game_id = g.id
		WHERE (p.address = $1 OR g.host = $1) AND g.status = $2 ORDER BY g.id DESC`, strings.ToLower(address), host.Playing)
}

// GamesStartedSince counts the games host (anyone's when "") started
// since a time.
func (t *Tx) GamesStartedSince(ctx context.Context, hostAddr string, since time.Time) (int, error) {
	var n int
	err := t.q().QueryRow(context.WithoutCancel(ctx), `SELECT COUNT(*) FROM games WHERE created >= $1 AND ($2 = '' OR host = $2)`,
		stamp(since), strings.ToLower(hostAddr)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return n, nil
}

// GamesNamingSince counts the games started since a time by a host
// other than address that give address a seat.
func (t *Tx) GamesNamingSince(ctx context.Context, address string, since time.Time) (int, error) {
	var n int
	err := t.q().QueryRow(context.WithoutCancel(ctx), `SELECT COUNT(*) FROM games WHERE created >= $1 AND host <> $2 AND id IN (SELECT game_id FROM players WHERE address = $2)`,
		stamp(since), strings.ToLower(address)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return n, nil
}

func (t *Tx) ids(ctx context.Context, query string, args ...any) ([]int64, error) {
	rows, err := t.q().Query(context.WithoutCancel(ctx), query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return ids, nil
}

// SaveGame writes a game's record and status.
func (t *Tx) SaveGame(ctx context.Context, id int64, rec *adjudicator.Record, status string) error {
	_, err := t.Save(ctx, id, rec, status)
	return err
}

// Save writes the status and the moves of rec beyond those stored, and
// returns the game's new revision: a record only grows, so one with fewer
// moves than stored, or whose last stored move changed, is refused.
func (t *Tx) Save(ctx context.Context, id int64, rec *adjudicator.Record, status string) (int64, error) {
	ctx = context.WithoutCancel(ctx)
	var stored int
	var last struct{ player, text, time, source *string }
	err := t.q().QueryRow(ctx, `SELECT g.moves, m.player, m.text, m.time, m.source
		FROM games g LEFT JOIN moves m ON m.game_id = g.id AND m.n = g.moves WHERE g.id = $1 FOR UPDATE OF g`, id).
		Scan(&stored, &last.player, &last.text, &last.time, &last.source)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, host.NoGame(id)
	}
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	if len(rec.Moves) < stored {
		return 0, fmt.Errorf("store: game %d: the record has %d moves, fewer than the %d stored; moves are never taken back", id, len(rec.Moves), stored)
	}
	if stored > 0 {
		mv := rec.Moves[stored-1]
		if last.player == nil || (adjudicator.RecordMove{Player: *last.player, Text: *last.text, Time: *last.time, Source: *last.source}) != mv {
			return 0, fmt.Errorf("store: game %d: move %d of the record is not the stored one; moves are never changed", id, stored)
		}
	}
	rev := newRev()
	var header []byte
	if rec.Ended != nil {
		// The ending is part of the header: written once, when the game
		// ends early.
		if header, err = marshalHeader(rec); err != nil {
			return 0, fmt.Errorf("store: game %d: %w", id, err)
		}
	}
	if _, err := t.q().Exec(ctx, `UPDATE games SET status = $1, updated = $2, rev = $3, moves = $4, record = COALESCE($5, record) WHERE id = $6`,
		status, stamp(t.now), rev, len(rec.Moves), header, id); err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	if err := t.insertMoves(ctx, id, rec.Moves[stored:], stored); err != nil {
		return 0, err
	}
	return rev, nil
}

// insertMoves stores moves as game id's moves after the first `after`.
func (t *Tx) insertMoves(ctx context.Context, id int64, moves []adjudicator.RecordMove, after int) error {
	for i, mv := range moves {
		if _, err := t.q().Exec(ctx, `INSERT INTO moves (game_id, n, player, text, time, source) VALUES ($1, $2, $3, $4, $5, $6)`,
			id, after+i+1, mv.Player, mv.Text, mv.Time, mv.Source); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	return nil
}

// Queue adds a mail to the outbox, due at once. A draft written apart
// (host.Mail.Pending) is waited for here: each statement of a request is a
// round trip to the server, which costs more than the waiting.
func (t *Tx) Queue(ctx context.Context, m host.Mail) error {
	if err := m.Written(); err != nil {
		return err
	}
	if err := sqlform.CheckMail(m); err != nil {
		return err
	}
	var gid, shared *int64
	if m.GameID != 0 {
		gid = &m.GameID
	}
	if m.Shared != nil {
		// A row the request inserted last when it holds the same bytes
		// (sqlform.RecentShared), else a new one.
		id, ok := t.recent.Find(m.Shared)
		if !ok {
			if err := t.q().QueryRow(context.WithoutCancel(ctx), `INSERT INTO outbox_shared (data) VALUES ($1) RETURNING id`, m.Shared).Scan(&id); err != nil {
				return fmt.Errorf("store: %w", err)
			}
			t.recent.Add(id, m.Shared)
		}
		shared = &id
	}
	q := sqlform.QueuedMail(m)
	var id int64
	err := t.q().QueryRow(context.WithoutCancel(ctx), `INSERT INTO outbox (game_id, recipient, raw, draft, reply, created, next_attempt, shared_id) VALUES ($1, $2, $3, $4, $5, $6, $6, $7) RETURNING id`,
		gid, q.Recipient, q.Raw, q.Draft, q.Reply, stamp(t.now), shared).Scan(&id)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	t.b.queued = append(t.b.queued, id)
	return nil
}

// exec runs a statement of the request.
func (t *Tx) exec(ctx context.Context, query string, args ...any) (int64, error) {
	tag, err := t.q().Exec(context.WithoutCancel(ctx), query, args...)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return tag.RowsAffected(), nil
}

// ReplacePlayer gives seat of game id to address, with secret as its key
// and token as its reply token.
func (t *Tx) ReplacePlayer(ctx context.Context, id int64, seat int, address, secret, token string) error {
	n, err := t.exec(ctx, `UPDATE players SET address = $1, secret = $2, token = $3 WHERE game_id = $4 AND seat = $5`,
		strings.ToLower(address), host.HashKey(secret), token, id, seat)
	if err != nil {
		return err
	}
	if n != 1 {
		return fmt.Errorf("store: game %d has no seat %d", id, seat)
	}
	return nil
}

// Observers returns the addresses that observe game id, in order.
func (t *Tx) Observers(ctx context.Context, id int64) ([]string, error) {
	rows, err := t.q().Query(context.WithoutCancel(ctx), `SELECT address FROM observers WHERE game_id = $1 ORDER BY address`, id)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return out, nil
}

// ObserverLangs returns the language of each observer of game id who has
// one ("fr"), by address.
func (t *Tx) ObserverLangs(ctx context.Context, id int64) (map[string]string, error) {
	rows, err := t.q().Query(context.WithoutCancel(ctx), `SELECT address, lang FROM observers WHERE game_id = $1 AND lang <> ''`, id)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var a, l string
		if err := rows.Scan(&a, &l); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		out[a] = l
	}
	return out, rows.Err()
}

// SetObserverLang records the language of address, an observer of game
// id: "fr", or "" for English.
func (t *Tx) SetObserverLang(ctx context.Context, id int64, address, lang string) error {
	_, err := t.exec(ctx, `UPDATE observers SET lang = $1 WHERE game_id = $2 AND address = $3`, lang, id, strings.ToLower(address))
	return err
}

// Observe adds address to the observers of game id, or takes it away, and
// reports whether that changed anything.
func (t *Tx) Observe(ctx context.Context, id int64, address string, on bool) (bool, error) {
	q := `INSERT INTO observers (game_id, address) VALUES ($1, $2) ON CONFLICT DO NOTHING`
	if !on {
		q = `DELETE FROM observers WHERE game_id = $1 AND address = $2`
	}
	n, err := t.exec(ctx, q, id, strings.ToLower(address))
	return n > 0, err
}

// ObserveRequest returns the hash of the token of address's request to
// observe game id, and when its confirmation mail went; "" when there is
// none.
func (t *Tx) ObserveRequest(ctx context.Context, id int64, address string) (string, time.Time, error) {
	var token, asked string
	err := t.q().QueryRow(context.WithoutCancel(ctx), `SELECT token, asked FROM observe_requests WHERE game_id = $1 AND address = $2`, id, strings.ToLower(address)).Scan(&token, &asked)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", time.Time{}, nil
	}
	if err != nil {
		return "", time.Time{}, fmt.Errorf("store: %w", err)
	}
	return token, parseStamp(&asked), nil
}

// ObserveRequestsSince counts the requests to observe game id waiting
// for their confirmation whose mail went at since or after.
func (t *Tx) ObserveRequestsSince(ctx context.Context, id int64, since time.Time) (int, error) {
	var n int
	err := t.q().QueryRow(context.WithoutCancel(ctx), `SELECT COUNT(*) FROM observe_requests WHERE game_id = $1 AND asked >= $2`, id, stamp(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return n, nil
}

// SetObserveRequest records address's request to observe game id; an
// empty tokenHash removes it.
func (t *Tx) SetObserveRequest(ctx context.Context, id int64, address, tokenHash string, asked time.Time) error {
	if tokenHash == "" {
		_, err := t.exec(ctx, `DELETE FROM observe_requests WHERE game_id = $1 AND address = $2`, id, strings.ToLower(address))
		return err
	}
	_, err := t.exec(ctx, `INSERT INTO observe_requests (game_id, address, token, asked) VALUES ($1, $2, $3, $4)
		ON CONFLICT (game_id, address) DO UPDATE SET token = excluded.token, asked = excluded.asked`, id, strings.ToLower(address), tokenHash, stamp(asked))
	return err
}

// SetObserversOff records whether the host of game id forbids observers;
// forbidding them also ends every observation.
func (t *Tx) SetObserversOff(ctx context.Context, id int64, off bool) error {
	if off {
		if _, err := t.exec(ctx, `DELETE FROM observers WHERE game_id = $1`, id); err != nil {
			return err
		}
	}
	_, err := t.exec(ctx, `UPDATE games SET observers_off = $1 WHERE id = $2`, off, id)
	return err
}

// stampOrNull is the stamp of tm, or NULL for the zero time.
func stampOrNull(tm time.Time) *string {
	if tm.IsZero() {
		return nil
	}
	s := stamp(tm)
	return &s
}

// SetNotify records how much mail the player of seat in game id wants, how
// many moves they have been told of, and when their next digest is due.
func (t *Tx) SetNotify(ctx context.Context, id int64, seat int, mode string, told int, digestNext time.Time) error {
	_, err := t.exec(ctx, `UPDATE players SET notify = $1, told = $2, digest_next = $3 WHERE game_id = $4 AND seat = $5`,
		mode, told, stampOrNull(digestNext), id, seat)
	return err
}

// SetLang records the language the player of seat in game id chose for
// herald's mails: "fr", or "" for English.
func (t *Tx) SetLang(ctx context.Context, id int64, seat int, lang string) error {
	_, err := t.exec(ctx, `UPDATE players SET lang = $1 WHERE game_id = $2 AND seat = $3`, lang, id, seat)
	return err
}

// SetMailLang records the language of the last mail of the player of
// seat in game id that said which: "fr", or "" for English.
func (t *Tx) SetMailLang(ctx context.Context, id int64, seat int, lang string) error {
	_, err := t.exec(ctx, `UPDATE players SET mail_lang = $1 WHERE game_id = $2 AND seat = $3`, lang, id, seat)
	return err
}

// SetHostLang records the language of game id's host: "fr", or "" for
// English.
func (t *Tx) SetHostLang(ctx context.Context, id int64, lang string) error {
	_, err := t.exec(ctx, `UPDATE games SET host_lang = $1 WHERE id = $2`, lang, id)
	return err
}

// SetUndeliverable records why mail to the player of seat in game id
// bounces ("" when it reaches them again).
func (t *Tx) SetUndeliverable(ctx context.Context, id int64, seat int, reason string) error {
	_, err := t.exec(ctx, `UPDATE players SET undeliverable = $1 WHERE game_id = $2 AND seat = $3`, reason, id, seat)
	return err
}

// SetAway records that the player of seat in game id is away until a time
// (zero: not away), having used so much of the game's vacation allowance.
func (t *Tx) SetAway(ctx context.Context, id int64, seat int, until time.Time, used time.Duration) error {
	_, err := t.exec(ctx, `UPDATE players SET away_until = $1, away_used = $2 WHERE game_id = $3 AND seat = $4`,
		stampOrNull(until), int64(used/time.Second), id, seat)
	return err
}

// SetPage sets the token of game id's web page and whether it is served.
func (t *Tx) SetPage(ctx context.Context, id int64, mode, token string) error {
	_, err := t.exec(ctx, `UPDATE games SET page = $1, page_token = $2 WHERE id = $3`, mode, token, id)
	return err
}

// TakeBack stores rec, game id's record with moves taken back, and returns
// the game's new revision.
func (t *Tx) TakeBack(ctx context.Context, id int64, rec *adjudicator.Record) (int64, error) {
	if len(rec.Undone) == 0 {
		return 0, fmt.Errorf("store: game %d: a take-back without an undone entry", id)
	}
	header, err := marshalHeader(rec)
	if err != nil {
		return 0, fmt.Errorf("store: game %d: %w", id, err)
	}
	rev := newRev()
	n, err := t.exec(ctx, `UPDATE games SET record = $1, moves = $2, rev = $3, updated = $4 WHERE id = $5`,
		header, len(rec.Moves), rev, stamp(t.now), id)
	if err != nil {
		return 0, err
	}
	if n != 1 {
		return 0, host.NoGame(id)
	}
	if _, err := t.exec(ctx, `DELETE FROM moves WHERE game_id = $1 AND n > $2`, id, len(rec.Moves)); err != nil {
		return 0, err
	}
	return rev, nil
}

// UndoRequest returns the request to take moves back of game id, or nil.
func (t *Tx) UndoRequest(ctx context.Context, id int64) (*host.UndoRequest, error) {
	u := &host.UndoRequest{}
	var accepted, until string
	err := t.q().QueryRow(context.WithoutCancel(ctx), `SELECT asked_by, keep, moves, accepted, until, source FROM undo_requests WHERE game_id = $1`, id).
		Scan(&u.AskedBy, &u.Keep, &u.Moves, &accepted, &until, &u.Source)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if accepted != "" {
		u.Accepted = strings.Split(accepted, ",")
	}
	u.Until = parseStamp(&until)
	return u, nil
}

// SetUndoRequest writes the request to take moves back of game id, or
// removes it (nil).
func (t *Tx) SetUndoRequest(ctx context.Context, id int64, u *host.UndoRequest) error {
	if u == nil {
		_, err := t.exec(ctx, `DELETE FROM undo_requests WHERE game_id = $1`, id)
		return err
	}
	_, err := t.exec(ctx, `INSERT INTO undo_requests (game_id, asked_by, keep, moves, accepted, until, source) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (game_id) DO UPDATE SET asked_by = excluded.asked_by, keep = excluded.keep, moves = excluded.moves,
			accepted = excluded.accepted, until = excluded.until, source = excluded.source`,
		id, u.AskedBy, u.Keep, u.Moves, strings.Join(u.Accepted, ","), stamp(u.Until), u.Source)
	return err
}

// SetClock writes the clock of game id, replacing the one it had.
func (t *Tx) SetClock(ctx context.Context, id int64, c host.Clock) error {
	_, err := t.exec(ctx, `INSERT INTO clocks (game_id, deadline, grace, remind, policy, since, to_move, stage, next, vacation)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		ON CONFLICT (game_id) DO UPDATE SET deadline = excluded.deadline, grace = excluded.grace, remind = excluded.remind,
			policy = excluded.policy, since = excluded.since, to_move = excluded.to_move, stage = excluded.stage, next = excluded.next,
			vacation = excluded.vacation`,
		id, int64(c.Deadline/time.Second), int64(c.Grace/time.Second), c.Remind, c.Policy, stamp(c.Since), c.ToMove, c.Stage, stampOrNull(c.Next),
		int64(c.Vacation/time.Second))
	return err
}

// RepliesSince counts the replies (Mail.Reply) queued to recipient since a
// time, for the rate limit.
func (t *Tx) RepliesSince(ctx context.Context, recipient string, since time.Time) (int, error) {
	return t.count(ctx, recipient, host.KeyedAnswer, since)
}

// AuthNoticesSince counts the answers to mails that failed authentication
// queued to recipient since a time.
func (t *Tx) AuthNoticesSince(ctx context.Context, recipient string, since time.Time) (int, error) {
	return t.count(ctx, recipient, host.AuthAnswer, since)
}

func (t *Tx) count(ctx context.Context, recipient string, kind host.AnswerKind, since time.Time) (int, error) {
	var n int
	err := t.q().QueryRow(context.WithoutCancel(ctx), `SELECT COUNT(*) FROM outbox WHERE recipient = $1 AND reply = $2 AND created >= $3`,
		strings.ToLower(recipient), int(kind), stamp(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return n, nil
}

// StrangerAnswersSince counts the answers of kinds host.AuthAnswer and
// host.UnkeyedAnswer queued to anyone since a time. The kinds are written
// in the statement, so that PostgreSQL plans it with the partial index
// outbox_strangers.
func (t *Tx) StrangerAnswersSince(ctx context.Context, since time.Time) (int, error) {
	var n int
	if err := t.q().QueryRow(context.WithoutCancel(ctx), `SELECT count(*) FROM outbox WHERE reply IN (`+sqlform.StrangerKinds+`) AND created >= $1`, stamp(since)).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return n, nil
}

// AnswersSince returns when the answers of kind were queued to recipient
// since a time, oldest first.
func (t *Tx) AnswersSince(ctx context.Context, recipient string, kind host.AnswerKind, since time.Time) ([]time.Time, error) {
	rows, err := t.q().Query(context.WithoutCancel(ctx), `SELECT created FROM outbox WHERE recipient = $1 AND reply = $2 AND created >= $3 ORDER BY created, id`,
		strings.ToLower(recipient), int(kind), stamp(since))
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	stamps, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	out := make([]time.Time, 0, len(stamps))
	for _, s := range stamps {
		at, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return nil, fmt.Errorf("store: outbox time %q: %w", s, err)
		}
		out = append(out, at)
	}
	return out, nil
}
