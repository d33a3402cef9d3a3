package adjudicator

// View is the documented, stable JSON form of a game (`herald show
// --format json`):
//
//	game         the game's name
//	players      seating order
//	to_move      the players who may submit now (empty when finished or ended)
//	move_number  the number of the next submission
//	scores       player name to score (provisional until finished), and
//	             the score of each seat the game plays itself (Automaton)
//	finished     whether the game is over
//	result       null until finished; then winners, draw (and who shares
//	             it: the winners of a draw are empty, shared lists them),
//	             and summary
//	ended        null unless the game ended early (RULINGS.md H-1): how
//	             (resigned or abandoned), by, time, source
//	board        the game's public board (see the game's package doc)
//	as           with --as, the player whose private view follows
//	private      with --as, that player's hidden information only
type View struct {
	Game       string         `json:"game"`
	Players    []string       `json:"players"`
	ToMove     []string       `json:"to_move"`
	MoveNumber int            `json:"move_number"`
	Scores     map[string]int `json:"scores"`
	Finished   bool           `json:"finished"`
	Result     *ResultView    `json:"result"`
	Ended      *EndedView     `json:"ended"`
	Board      any            `json:"board"`
	As         string         `json:"as,omitempty"`
	Private    any            `json:"private,omitempty"`
}

// ResultView is the JSON form of a finished game's result.
type ResultView struct {
	Winners []string `json:"winners"`
	Draw    bool     `json:"draw"`
	Shared  []string `json:"shared"` // who shares a draw; empty otherwise
	Summary string   `json:"summary"`
}

// EndedView is the JSON form of Record.Ended.
type EndedView struct {
	How    string `json:"how"`
	By     string `json:"by"`
	Time   string `json:"time"`
	Source string `json:"source"`
}

// View returns the match's view; as names a player for their private view,
// or is empty for the public view.
func (m *Match) View(as string) *View {
	st := m.State
	v := &View{
		Game:       m.Game.Name,
		Players:    m.Record.Players,
		ToMove:     st.ToMove(),
		MoveNumber: m.MoveNumber(),
		Scores:     map[string]int{},
		Board:      st.Board(),
	}
	if v.ToMove == nil {
		v.ToMove = []string{}
	}
	seats := m.Seats()
	for i, s := range st.Scores() {
		v.Scores[seats[i]] = s
	}
	if res := st.Result(); res.Finished {
		v.Finished = true
		w := res.Winners
		if w == nil {
			w = []string{}
		}
		sh := res.Shared
		if sh == nil {
			sh = []string{}
		}
		v.Result = &ResultView{Winners: w, Draw: res.Draw, Shared: sh, Summary: res.Summary}
	}
	if e := m.Record.Ended; e != nil {
		v.Ended = &EndedView{How: e.How, By: e.By, Time: e.Time, Source: e.Source}
		v.ToMove = []string{}
	}
	if as != "" {
		v.As = as
		v.Private = st.Private(as)
	}
	return v
}
