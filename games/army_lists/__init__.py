"""Army lists written by other tools: reading them (the Warhammer 40,000 app's text export, New
Recruit / BattleScribe rosters), matching what they name to the rules data, and writing an army
back in the app's text format. Everything here is pure Python over plain rules data (the bundle
format of docs/rules-data-format.md); `games.armies.import_list` is the Django side."""
