"""Games between two players: seats, links, the append-only event log, chat and saved armies."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import connection, models
from django.utils import timezone


def new_token() -> str:
    return secrets.token_urlsafe(24)


class BattleSize(models.TextChoices):
    INCURSION = "incursion", "Incursion (1000 points)"
    STRIKE_FORCE = "strike-force", "Strike Force (2000 points)"
    ONSLAUGHT = "onslaught", "Onslaught (3000 points)"


class Army(models.Model):
    """A saved army list: faction, detachment and units, as the army builder writes it."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="armies"
    )
    name = models.CharField(max_length=100)
    faction = models.SlugField(max_length=100)
    detachment = models.SlugField(max_length=100, blank=True)
    battle_size = models.CharField(
        max_length=20, choices=BattleSize.choices, default=BattleSize.INCURSION
    )
    units = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated"]
        verbose_name_plural = "armies"

    def __str__(self) -> str:
        return f"{self.name} ({self.owner})"


class Game(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for opponent"
        MUSTERING = "mustering", "Mustering"
        DEPLOYMENT = "deployment", "Deployment"
        BATTLE = "battle", "Battle"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="created_games"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="joined_games",
    )
    ruleset = models.ForeignKey("rules.RuleSet", on_delete=models.PROTECT, related_name="games")
    battle_size = models.CharField(
        max_length=20, choices=BattleSize.choices, default=BattleSize.INCURSION
    )
    mission = models.SlugField(max_length=100, blank=True)
    window_time_limit = models.PositiveIntegerField(
        null=True, blank=True, help_text="Seconds a player has to answer a stratagem window."
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.WAITING)
    invite_token = models.CharField(max_length=64, unique=True, default=new_token)
    spectator_token = models.CharField(
        max_length=64, unique=True, null=True, blank=True, default=new_token
    )
    # Listed on the home page ("Watch") with its spectator link, for anyone to watch.
    listed = models.BooleanField(
        default=False, help_text="Anyone may watch: the home page lists the spectator link."
    )
    # A practice game: the computer holds seat 2 and plays at this level ("" for two people).
    computer = models.CharField(
        max_length=20,
        blank=True,
        default="",
        choices=[("", "Nobody"), ("random", "Random"), ("tactical", "Tactical")],
        help_text="The computer's level when it holds seat 2 (a practice game).",
    )
    # The dice seed stays secret until the game ends; its SHA-256 is public from the start.
    dice_seed = models.CharField(max_length=64)
    seed_commitment = models.CharField(max_length=64)
    version = models.PositiveIntegerField(default=0, help_text="How many events the log holds.")
    # The engine state is written whole when the game starts and every few events
    # (games.matches.SNAPSHOT_EVERY): `stored_state` is the state at `state_version`. Each action
    # in between writes only its log rows, the last of them with the RFC 6902 patch of the whole
    # state (`GameEvent.state_patch`). `state` (below) is the state now: the worker's copy
    # (games.live_states) or `stored_state` with the patches after it applied.
    stored_state = models.JSONField(null=True, blank=True)
    state_version = models.PositiveIntegerField(
        default=0, help_text="The version `stored_state` stands at."
    )
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    army_snapshots = models.JSONField(default=dict, blank=True)
    # What `new_game` was given (rule set, mission, datasheets, army lists): with the seed and the
    # log's actions it replays the game (rules.engine.replay).
    setup = models.JSONField(null=True, blank=True)
    # The stratagem window the clock runs for (its decision id) and when it passes by itself.
    # None (not "") when no clock runs, as the engine's decision ids are never empty.
    window_decision = models.CharField(  # noqa: DJ001
        max_length=32, null=True, blank=True, help_text="The id of the window the clock runs for."
    )
    window_deadline = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated"]
        indexes = [models.Index(fields=["window_deadline"], name="game_window_deadline")]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.get_status_display()})"

    def seat_of(self, user) -> int | None:
        if not getattr(user, "is_authenticated", False):
            return None
        if user.pk == self.creator_id:
            return 1
        if self.opponent_id is not None and user.pk == self.opponent_id:
            return 2
        return None

    @property
    def state(self) -> dict | None:
        """The engine state at `version` (None before the game starts)."""
        if "_state_now" in self.__dict__:
            return self._state_now
        from games import live_states

        return live_states.engine_state(self)

    @state.setter
    def state(self, value: dict | None) -> None:
        """The whole state at the game's `version`, stored as it is by the next `save()`."""
        self.stored_state = value
        self.state_version = self.version
        self._state_now = value

    def refresh_from_db(self, *args, **kwargs) -> None:
        self.__dict__.pop("_state_now", None)
        super().refresh_from_db(*args, **kwargs)

    @property
    def is_over(self) -> bool:
        return self.status in {self.Status.FINISHED, self.Status.ABANDONED}


class RowJSONField(models.JSONField):
    """A JSONField that a bulk insert writes with one placeholder per row. Without a
    `get_placeholder`, Django's bulk insert on PostgreSQL sends each column as one array
    (`UNNEST`), and psycopg escapes every quote of every JSON text of the array in Python: a
    third of the database work of an action's log rows (docs/performance.md, "Fourth pass")."""

    def get_placeholder(self, value, compiler, connection) -> str:
        return "%s"


class GameEvent(models.Model):
    """One entry of a game's append-only log; `sequence` runs 1, 2, 3 ... without gaps."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    sequence = models.PositiveIntegerField()
    kind = models.CharField(max_length=60)
    payload = RowJSONField()
    # On the last row an action (or the set-up) wrote: the RFC 6902 patch that turns the whole
    # engine state before it into the state after it (games.state_patches.diff). Null on the
    # other rows, on rows whose change the game stored whole, and on the concession.
    state_patch = RowJSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["game", "sequence"], name="one_event_per_sequence"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.sequence} {self.kind}"

    def as_message(self) -> dict:
        return {"sequence": self.sequence, "kind": self.kind, **self.payload}


class GameSnapshot(models.Model):
    """The engine state after `version` events, stored every few events so that a long game can be
    read back (or a far-behind client caught up) without replaying its whole log."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    version = models.PositiveIntegerField()
    state = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="one_snapshot_per_version"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}@{self.version}"

    @classmethod
    def copy_stored_state(cls, game: Game) -> None:
        """A snapshot of the state the game row holds whole, just saved (`stored_state` at
        `version`): copied by the database, so the state (about 145 KB of JSON in a Strike Force
        game) is neither encoded nor sent a second time. The row stores the same JSON a
        `create(state=...)` would."""
        quote = connection.ops.quote_name
        into = {field.name: quote(field.column) for field in cls._meta.concrete_fields}
        row = {field.name: quote(field.column) for field in Game._meta.concrete_fields}
        created = cls._meta.get_field("created").get_db_prep_value(timezone.now(), connection)
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {quote(cls._meta.db_table)}"
                f" ({into['game']}, {into['version']}, {into['state']}, {into['created']})"
                f" SELECT {row['id']}, {row['state_version']}, {row['stored_state']}, %s"
                f" FROM {quote(Game._meta.db_table)} WHERE {row['id']} = %s",
                [created, game.pk],
            )


class ClientAction(models.Model):
    """The answer to a client's action id, so that a resent message is not applied twice."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="client_actions")
    seat = models.PositiveSmallIntegerField()
    client_id = models.CharField(max_length=64)
    response = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seat", "client_id"], name="one_answer_per_client_id"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} seat {self.seat}: {self.client_id}"


class ChatMessage(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    seat = models.PositiveSmallIntegerField()
    text = models.CharField(max_length=500)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "id"]

    def __str__(self) -> str:
        return f"{self.game_id} seat {self.seat}: {self.text[:40]}"

    def as_message(self) -> dict:
        return {
            "id": self.pk,
            "seat": self.seat,
            "author": self.author.get_username(),
            "text": self.text,
            "created": self.created.isoformat(),
        }
