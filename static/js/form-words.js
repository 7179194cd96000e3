/* The forms' sentences: what a form asks before it is sent (confirm) and says once the API has answered
 * (done), from Django's JavaScript catalogue like every other word of a script. A form names its sentences with
 * data-says="undo-bust"; static/js/api-forms.js asks and says them. A "{name}" is filled by Util.fmt from, in this
 * order, the API's answer, the form's body, then the form's own data-* values (data-entry="12": {entry}); a dotted
 * name reaches inside one ({player.display_name}). A sentence that needs more than a fill (an amount of money, one
 * of two sentences) is a function of those values. tests/config/test_screen_shape.py holds the names here and the
 * templates' data-says to one another: every name said is here, and every sentence here is said.
 */
import * as Util from "./util.js";

var RECEIPT_RECORDED = gettext("Receipt {number} recorded.");
var BUST_PLACE = gettext("Entry #{number} is out in place {finish_place}.");
var BUST_FLIGHT = gettext("Entry #{number} is out of this flight (a flight's bust has no place).");
var PENALTY_WARNING = gettext("Penalty #{number}: a warning to {name} (entry #{entry}, table {table} seat {seat}).");
var PENALTY_HANDS = gettext("Penalty #{number}: {name} (entry #{entry}, table {table} seat {seat}) sits out {hands} hands, dealt in and blinded off. The table's tablet shows it.");

export const SAYS = {
  // The floor's chip counts (templates/tables/chip_counts.html): the answer's entry and chips.
  "count-one": {done: gettext("Entry #{entry}: {chips} chips counted.")},
  // An entry (templates/tournament/entry_detail.html); the numbers are the answer's (the entry's, the receipt's).
  "undo-bust": {confirm: gettext("Undo this bust? The player plays again and the places after it move."),
                done: gettext("Entry #{number} plays again.")},
  "rebuy-paid": {confirm: gettext("Record a paid re-buy?"), done: RECEIPT_RECORDED},
  "rebuy-announced": {confirm: gettext("Record an announced re-buy? The player plays the chips behind and must pay."),
                      done: RECEIPT_RECORDED},
  "addon": {confirm: gettext("Record a paid add-on?"), done: RECEIPT_RECORDED},
  "bust": {confirm: gettext("Bust this player? This records the finishing place."),
           done: function (v) {  // a Day 1 flight's bust has no place (flights/reactions.py)
             return v.finish_place === null || v.finish_place === undefined ? Util.fmt(BUST_FLIGHT, v) : Util.fmt(BUST_PLACE, v);
           }},
  "seat-request": {done: gettext("The seat request is saved.")},
  "seat-request-cancel": {done: gettext("The seat request is cancelled.")},
  "receipt-pay": {done: gettext("Receipt {number} is paid.")},
  "receipt-void": {confirm: gettext("Void this receipt? This cannot be undone."),
                   done: gettext("Receipt {number} is void; the refund is recorded.")},
  // Registration (templates/tournament/register.html, player_form.html): the answer names the player.
  "register": {done: gettext("Entry #{number} registered for {player.display_name}.")},
  // A sold-out tournament's waiting list (register.html, player_form.html, waiting_list.html): the answer is the place
  // ({number}: the alternate number, {name}); a row's forms carry its data-number and data-name for the question.
  "waiting-join": {done: gettext("{name} is on the waiting list: alternate {number}.")},
  // Places reserved from phones (register.html, player_form.html, reservations.html): the claim's answer is the entry.
  "reservation-claim": {done: gettext("Reservation R-{reservation} claimed: entry #{number} registered for {player.display_name}.")},
  "reservation-claim-waiting": {done: gettext("Reservation R-{reservation} claimed: {name} is on the waiting list, alternate {number}.")},
  "reservation-cancel": {confirm: gettext("Cancel reservation R-{number}, {name}? Its place is free again. This cannot be undone."),
                         done: gettext("Reservation R-{number}, {name}, is cancelled.")},
  "waiting-seat": {confirm: gettext("Alternate {number}, {name}, has sat down at his seat? His place on the list is closed."),
                   done: gettext("Alternate {number}, {name}, sat down.")},
  "waiting-pass": {confirm: gettext("Pass over alternate {number}, {name}? His entry is voided and his seat goes to the next on the list. This cannot be undone."),
                   done: gettext("Alternate {number}, {name}, is passed over.")},
  "waiting-cancel": {confirm: gettext("Take alternate {number}, {name}, off the list? This cannot be undone."),
                     done: function (v) {
                       var said = Util.fmt(gettext("Alternate {number}, {name}, is off the list."), v);
                       if (!v.refund) return said;
                       return said + " " + Util.fmt(gettext("Give back {amount}."), {amount: Util.money(v.refund, v.currency)});
                     }},
  "waiting-offer": {confirm: function (v) {
    return Util.fmt(ngettext("Seat the next alternate now? He gets an entry and a seat by the late-entry draw.",
                             "Seat the next {count} alternates now? Each gets an entry and a seat by the late-entry draw.",
                             Number(v.count) || 1), v);
  }, done: function (v) {
    var seated = Array.isArray(v) ? v : [];
    return Util.fmt(ngettext("{count} alternate offered a seat: {numbers}.", "{count} alternates offered a seat: {numbers}.",
                             seated.length), {count: seated.length, numbers: seated.map(function (p) { return p.number; }).join(", ")});
  }},
  // The tournament's page (templates/tournament/detail.html).
  "level-set": {done: gettext("Level {level} is now in play.")},
  "registration-open": {done: gettext("Registration is open.")},
  "registration-close": {confirm: gettext("Close registration now?"), done: gettext("Registration is closed.")},
  // The director's clock (templates/clock/director.html): its done sentences are static/js/director-clock.js's.
  "clock-previous": {confirm: gettext("Go back to the previous level on every screen now?")},
  "clock-next": {confirm: gettext("Move every screen to the next level now?")},
  "clock-end-level": {confirm: gettext("End the level (or break) in play now? The time it has left is removed and the next one starts at once with its full time, on every screen.")},
  "clock-jump": {confirm: gettext("Jump to level {level} with its full time, on every screen?")},
  // Lobby screens (templates/tournament/displays.html, _display_revoke.html) and API tokens (templates/auth/tokens.html).
  "display-create": {done: gettext("Screen link created for {label}.")},
  "display-revoke": {confirm: gettext("Revoke this screen link?"),
                     done: gettext("The link of {label} is revoked; that screen goes blank.")},
  "token-revoke": {confirm: gettext("Revoke this token? The device using it must log in again."),
                   done: gettext("The token is revoked.")},
  "language": {done: gettext("Your language is saved.")},
  // The end of a day (templates/days/day.html): the form's data-day, then the answer's day.
  "day-close": {confirm: gettext("Close day {day}? Its bags can no longer change, and the next day begins."),
                done: gettext("Day {day} is closed.")},
  // Events with flights (templates/flights/events.html, event.html): the answer is the event's state; a flight's end
  // names the form's data-flight; the carry's answer counts the bags carried and forfeited.
  "flight-event-create": {done: gettext("Event {name} created.")},
  "flight-add": {done: gettext("Flight {label} added.")},
  // The room's set-up (templates/venues/room.html): the answer's table, or the file's counts.
  "venue-table-add": {done: gettext("Table {number} added to the venue.")},
  // A tournament being set up made a sit & go (templates/setup/tournament_form.html): the answer's players.
  "sit-and-go-set": {done: gettext("A sit & go of {players} players: it starts when they are registered.")},
  "venue-import": {done: gettext("Room file read: {tables} tables, {added} added, {changed} changed.")},
  // A tournament being set up chooses this venue (templates/venues/room.html, with more than one venue).
  "venue-tournament": {done: gettext("The tournament takes its tables from this venue now.")},
  "flight-end": {done: gettext("Flight {flight}: its end is saved.")},
  "flight-day2": {done: gettext("Day 2 is {day2.name}.")},
  "flight-late": {done: gettext("Day 2 late registration saved.")},
  "flight-policy": {done: gettext("Stack policy saved.")},
  "flight-carry": {confirm: gettext("Carry the bags of every flight to Day 2 now? Each player goes on with one bag by the stack policy; this cannot be undone."),
                   done: gettext("{carried} bags went on to Day 2, {forfeited} forfeited.")},
  // Leagues (templates/leagues/leagues.html, league.html): the answer is the league's state; a tournament taken out
  // names the form's data-name.
  "league-create": {done: gettext("League {name} created.")},
  "league-settings": {done: gettext("League settings saved.")},
  "league-add": {done: gettext("Tournament added to the league.")},
  "league-remove": {confirm: gettext("Take {name} out of the league? Its points go with it."),
                    done: gettext("{name} is out of the league.")},
  // The floor (templates/tables/house_rules.html, penalties.html, _penalty_row.html): a warning or hands to sit out.
  "house-rules": {done: gettext("House rules saved.")},
  "penalty-give": {confirm: function (values) {
    return values.kind === "dq" ? gettext("Disqualify this player? His chips leave play and nothing is refunded.") : "";
  }, done: function (values) {
    if (values.kind === "dq") {
      return Util.fmt(gettext("{name} is disqualified: {chips} chips out of play, no refund."),
                      Object.assign({}, values, {chips: Util.count(values.chips || 0)}));
    }
    return Util.fmt(values.kind === "warning" ? PENALTY_WARNING : PENALTY_HANDS, values);
  }},
  "penalty-cancel": {done: function (values) {
    if (values.kind === "dq") return Util.fmt(gettext("Disqualification #{number} cancelled: {name} plays again."), values);
    return Util.fmt(gettext("Penalty #{number} is cancelled."), values);
  }},
  // Setup (templates/setup/): the name is the answer's; a tournament's own structure names the tournament
  // (the form's data-tournament: the answer's name is the structure's).
  "structure-saved": {done: gettext("Structure {name} saved.")},
  "tournament-structure-saved": {done: gettext("The structure of {tournament} is saved.")},
  "structure-copied": {done: gettext("Copied as {name}. You can change the copy now.")},
  "structure-imported": {done: gettext("Structure {name} imported.")},
  "tournament-saved": {done: gettext("Tournament {name} saved.")},
  // A tournament file (templates/archive/import.html): the answer is what the import did (web/archive/api.py).
  "tournament-imported": {done: function (values) {
    var said = [Util.fmt(gettext("{name} imported as tournament {id}: {entries} entries, {events} events, {players_new} new players, {players_found} players found here by their ID hash."), values)];
    if (values.users_new && values.users_new.length) {
      said.push(Util.fmt(gettext("Users made inactive, without a password (give them roles and a password to use them): {users}."),
                         {users: values.users_new.join(", ")}));
    }
    if (values.links_revoked) {
      said.push(Util.fmt(gettext("Dealer links and lobby screens revoked: {links} (a file never brings a working link: make new ones here)."),
                         {links: values.links_revoked}));
    }
    if (values.tables_not_held && values.tables_not_held.length) {
      said.push(Util.fmt(gettext("Tables this venue cannot give it now (free them, or move their players, then open them again): {tables}."),
                         {tables: values.tables_not_held.map(function (t) { return t.reason.replace(/\.$/, ""); }).join("; ")}));
    }
    if (values.id_checks_verifiable === false) {
      said.push(gettext("The file was made with another ID hash key: the ID checks of this tournament cannot be verified here, and a prize still unpaid cannot be paid against its registration's document."));
    }
    return said.join(" ");
  }},
  // Prizes (templates/payouts/): the amount to pay (a prize, bounties) is the form's data-amount in minor units of its data-currency.
  "deal-approve": {confirm: gettext("Approve this deal? Its prizes stand from now on."),
                   done: gettext("The deal is approved.")},
  "deal-reject": {done: gettext("The deal is rejected: the prizes stand as they were.")},
  "deal-propose": {done: gettext("Deal {number} proposed: the director approves it.")},
  "payout-plan": {done: gettext("Payout settings saved.")},
  // A satellite (templates/payouts/_satellite.html, tournament/register.html): its setting, a ticket passed on, a ticket
  // registered into the target (the answer is the entry).
  "satellite-set": {done: gettext("Satellite settings saved.")},
  "satellite-remove": {confirm: gettext("This tournament will award no seats. Go on?"),
                       done: gettext("The tournament is no longer a satellite.")},
  "ticket-transfer": {confirm: gettext("Pass this ticket to {name}? The log keeps the reason."),
                      done: gettext("Ticket {number} now belongs to {holder_name}.")},
  "ticket-register": {done: gettext("Entry #{number} registered with the ticket: no payment taken.")},
  "prizes-edit": {done: gettext("The prizes are saved.")},
  "prizes-edit-drop": {confirm: gettext("Drop the hand edit and use the generated prizes?"),
                       done: gettext("The generated prizes stand again.")},
  "prize-pay": {confirm: function (values) {
    return Util.fmt(gettext("Pay {amount} to entry #{entry}?"),
                    {amount: Util.money(values.amount, values.currency), entry: values.entry});
  }, done: gettext("Prize paid: payout receipt {number}.")},
  "payment-void": {confirm: gettext("Void this payment?"), done: gettext("The payment is void.")},
  // The room's roll printer (templates/venues/_roll_print.html, venues/room.html; docs/printing.md): a paper printed with
  // one press (the answer names the printer), and the house's paper and printer set.
  "roll-print": {done: gettext("Printed on the roll printer at {printer}.")},
  "venue-printing": {done: gettext("The paper and the roll printer are saved.")},
  // A bounty event (templates/payouts/_bounties.html, bounty_pay.html, receipt.html): the house's settings, the mystery
  // envelopes committed, the bounties paid at the cage and a bounty payment voided.
  "bounty-rules": {done: gettext("Bounty settings saved.")},
  "bounty-envelopes": {confirm: gettext("Commit this list of envelopes? It cannot be changed afterwards."),
                       done: gettext("The envelopes are committed: the list's hash is published.")},
  "bounty-pay": {confirm: function (values) {
    return Util.fmt(gettext("Pay {amount} of bounties to entry #{entry}?"),
                    {amount: Util.money(values.amount, values.currency), entry: values.entry});
  }, done: gettext("Bounties paid: bounty receipt {number}.")},
  "bounty-payment-void": {confirm: gettext("Void this bounty payment? Its bounties are owed again."),
                          done: gettext("The bounty payment is void: its bounties are owed again.")}
};
