// Package games lists the games herald plays. Adding a game is one import
// and one entry here.
package games

import (
	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
	"github.com/heraldgames/herald/games/heritiers"
	"github.com/heraldgames/herald/games/lowenherz"
	"github.com/heraldgames/herald/games/lowenherz97"
	"github.com/heraldgames/herald/games/raubritter"
)

// All is the registry of every game, in the order `herald games` lists them,
// with herald's bot to check the moves bots made.
var All = adjudicator.NewRegistry(
	raubritter.Game,
	lowenherz.Game,
	lowenherz97.Game,
	heritiers.Game,
).WithRobot(bot.Robot{})
