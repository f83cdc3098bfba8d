// A period's games ledger's filter: shows the rows that match the player (part of a name, any case or
// width), the reason (a reason or a note of the game) and counted; ?player=NAME presets the player.
// Its words are marked T(message): the page gives their translations as JSON (<script id="messages">).
"use strict";
(function () {
  var given = document.getElementById("messages");
  var messages = given ? JSON.parse(given.textContent) : {};
  var T = function (message) { return messages[message] || message; };
  var fold = function (s) { return s.normalize("NFKC").toLowerCase(); };
  var field = function (id) { return document.getElementById(id); };
  var rows = Array.prototype.slice.call(document.querySelectorAll("#ledger tbody tr"));
  var names = rows.map(function (row) { return JSON.parse(row.dataset.names).map(fold); });

  function matches(i, player, reason, counted) {
    var row = rows[i];
    if (counted && row.dataset.counted !== counted) { return false; }
    if (reason && row.dataset.codes.split(" ").indexOf(reason) < 0) { return false; }
    return !player || names[i].some(function (n) { return n.indexOf(player) >= 0; });
  }

  function apply() {
    var player = fold(field("f-player").value.trim());
    var reason = field("f-reason").value, counted = field("f-counted").value;
    var shown = 0;
    rows.forEach(function (row, i) {
      var keep = matches(i, player, reason, counted);
      row.hidden = !keep;
      shown += keep ? 1 : 0;
    });
    field("f-shown").value = T("{shown} of {total} games")
      .replace("{shown}", String(shown)).replace("{total}", String(rows.length));
  }

  var preset = new URLSearchParams(window.location.search).get("player");
  if (preset) { field("f-player").value = preset; }
  ["f-player", "f-reason", "f-counted"].forEach(function (id) {
    field(id).addEventListener("input", apply);
    field(id).addEventListener("change", apply);
  });
  apply();
})();
