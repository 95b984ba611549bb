"""How long an action takes to reach everyone at the table, against daphne over real websockets.

N games, each with its two players and 10 spectators connected (12 sockets), play the moves of
one self-played game (the same armies, seed and moves in every game): every `--interval` seconds
a game's acting player sends its next action, and the time until the last of the 12 sockets has
its `events` is measured. In the same run, on the same server, 12 echo sockets per game
(`/ws/echo/?group=...`, tabletop/health.py) measure the bare channel-layer fan-out: one message
group-sent to 12 sockets, no database, no engine. A game sends its next action only once the
previous one has reached everyone (or 10 s passed), so with a short interval the run finds the
server's capacity (actions per second at saturation). `--no-echo` leaves the echo sockets out,
so that a capacity run measures the games alone. With several workers, `--placement split` (the
default) puts seat 1 and seat 2 of each game on different workers, and `--placement by-game` puts
all of a game's sockets on one worker, as a proxy that routes `/ws/games/<id>/` by game would,
and `--placement proxy` connects every socket through nginx running `deploy/nginx.conf`.
Before any action, every socket opens and reads its `hello`, as in a page-reload storm: the time
from the first handshake to the last `hello` is `connect_seconds`, and the workers' CPU over it
`connect_worker_cpu_seconds` (and per socket).

    .venv/bin/python bench/fanout.py --games 20 --battle-size strike-force
    .venv/bin/python bench/fanout.py --games 20 --workers 2 \\
        --database-url postgres://postgres@127.0.0.1:5432/strategium_server \\
        --redis-url redis://127.0.0.1:6379/5

Without --database-url it runs the embedded deployment (SQLite in a temporary folder, the
in-memory channel layer, one worker). The PostgreSQL database is dropped and created anew and
the Redis database flushed. `--source DIR` serves another checkout of the project (the "before"
figures) with this script and its virtualenv. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

HERE = Path(__file__).resolve().parents[1]
SPECTATORS = 10
ACTION_TIMEOUT = 10.0
HEAD = re.compile(r'"type":\s*"(\w+)"(?:,\s*"since":\s*(\d+))?(?:,\s*"version":\s*(\d+))?')


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument(
        "--battle-size", choices=["incursion", "strike-force"], default="strike-force"
    )
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between actions")
    parser.add_argument("--seconds", type=float, default=40.0, help="how long actions are sent")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--redis-url", default="")
    parser.add_argument("--source", default=str(HERE), help="the checkout daphne serves")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument(
        "--placement",
        choices=["split", "by-game", "proxy"],
        default="split",
        help="with several workers: split each game's sockets over them (seat 1 and seat 2 on"
        " different workers); put all of a game's sockets on one worker, as a proxy that routes"
        " by game would (by-game); or connect every socket through nginx running"
        " deploy/nginx.conf (proxy)",
    )
    parser.add_argument(
        "--no-echo",
        action="store_true",
        help="no bare fan-out probes (a capacity run then measures the game's work alone)",
    )
    parser.add_argument(
        "--spread",
        type=int,
        default=0,
        help="start the games this many moves apart at most (0: every game at the first move)",
    )
    return parser.parse_args()


# --- the world: games with both armies picked, sessions, the moves of a self-played game ------


def unit(key: str, datasheet: str, models: int, **more) -> dict:
    return {"key": key, "datasheet": datasheet, "models": models, **more}


def armies(battle_size: str) -> tuple[dict, dict]:
    if battle_size == "incursion":
        from tests.match_world import cadians, grey_knights

        return grey_knights(), cadians()
    knights = {
        "name": "Castellans (Strike Force)",
        "faction": "grey-knights",
        "detachment": "teleport-strike-force",
        "battle_size": "strike-force",
        "units": [
            unit("cap", "brother-captain", 1, warlord=True, role="leader", attached_to="t1"),
            unit("champ", "brotherhood-champion", 1, role="leader", attached_to="ss2"),
            *(unit(f"ss{n}", "strike-squad", 10) for n in (1, 2, 3)),
            *(unit(f"i{n}", "interceptor-squad", 10) for n in (1, 2)),
            *(unit(f"t{n}", "brotherhood-terminator-squad", 5) for n in (1, 2)),
            unit("rh", "rhino", 1),
        ],
    }
    guard = {
        "name": "Cadia stands (Strike Force)",
        "faction": "astra-militarum",
        "detachment": "combined-arms",
        "battle_size": "strike-force",
        "units": [
            unit("cas", "cadian-castellan", 1, warlord=True, role="leader", attached_to="c1"),
            *(unit(f"c{n}", "cadian-shock-troops", 20) for n in range(1, 7)),
            *(unit(f"d{n}", "death-riders", 10) for n in (1, 2, 3)),
            *(unit(f"l{n}", "leman-russ-battle-tank", 1) for n in (1, 2, 3)),
            unit("ch1", "chimera", 1),
            unit("ch2", "chimera", 1),
        ],
    }
    return knights, guard


def session_cookie(user) -> str:
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def moves(setup: dict, seed: str, count: int) -> list[dict]:
    """The first `count` actions of a game self-played from this setup and seed."""
    try:  # the engine's public face (the "before" checkout has the engine in flat modules)
        from rules.engine import Refusal, acting_player, apply, new_game
        from rules.engine.tools import selfplay
    except ImportError:
        from rules.engine.game import acting_player, apply, new_game
        from rules.engine.refusals import Refusal

        from rules.engine import selfplay

    rng = random.Random(1)
    state, _ = new_game(setup, seed)
    actions = []
    while len(actions) < count and state["stage"] != "ended":
        player = acting_player(state)
        for candidate in selfplay.choose_action(rng, state, player):
            try:
                state, _ = apply(state, candidate)
            except Refusal:
                continue
            actions.append(candidate)
            break
    return actions


def build_world(args: argparse.Namespace) -> dict:
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("load_rules", verbosity=0)
    from django.contrib.auth import get_user_model

    from games import armies as army_services
    from games import matches, services
    from games.models import Game, GameEvent

    try:
        from rules.engine import seed_commitment
    except ImportError:
        from rules.engine.dice import seed_commitment

    users = get_user_model().objects
    alice = users.create_user("bench-alice", password="x-long-password")
    bob = users.create_user("bench-bob", password="x-long-password")
    first_army, second_army = armies(args.battle_size)
    seed = "5eed" * 16
    first = services.create_game(alice, battle_size=args.battle_size)
    same_dice = {"dice_seed": seed, "seed_commitment": seed_commitment(seed)}
    Game.objects.filter(pk=first.pk).update(**same_dice)
    services.join_by_invite(first.invite_token, bob)
    matches.pick_army(first.pk, alice, army_services.create_army(alice, first_army).pk)
    matches.pick_army(first.pk, bob, army_services.create_army(bob, second_army).pk)
    first = Game.objects.get(pk=first.pk)
    needed = int(args.seconds / args.interval) + 5
    # With --spread, game n starts n * spread / games moves into the same self-played game, as a
    # community's games are at different points of their battles; without it, all start together.
    offsets = [n * args.spread // args.games for n in range(args.games)]
    played = moves(first.setup, seed, max(offsets) + needed)
    # Every measured game is a copy of the rows of `first` after its first `offset` moves.
    columns = {field.attname for field in Game._meta.concrete_fields}
    started = ["army_snapshots", "setup", "state", "stored_state", "state_version", "version"]
    more = ["status", "mission", "window_decision", "window_deadline"]
    started = [name for name in [*started, *more] if name in columns]
    at_offset, done = {}, 0
    for offset in sorted(set(offsets)):
        done = play_on(first.pk, played, done, offset, matches)
        at_offset[offset] = rows_of(first.pk)
    games = []
    for offset in offsets:
        template = at_offset[offset]
        game = services.create_game(alice, battle_size=args.battle_size)
        services.join_by_invite(game.invite_token, bob)
        Game.objects.filter(pk=game.pk).update(
            **same_dice, **{name: template["row"][name] for name in started}
        )
        event_columns = {f.attname for f in GameEvent._meta.concrete_fields} - {"id", "game_id"}
        GameEvent.objects.bulk_create(
            GameEvent(game_id=game.pk, **{name: getattr(e, name) for name in event_columns})
            for e in template["events"]
        )
        game = Game.objects.get(pk=game.pk)
        games.append({"id": game.pk, "spectate": game.spectator_token, "version": game.version})
        games[-1]["offset"] = offset
    return {
        "games": games,
        "cookies": {1: session_cookie(alice), 2: session_cookie(bob)},
        "moves": played,
    }


def play_on(game_id: int, played: list[dict], done: int, offset: int, matches) -> int:
    """Apply moves `done` to `offset` of `played` to the game, as its players would."""
    from games.models import Game

    for number in range(done, offset):
        action = played[number]
        version = Game.objects.values_list("version", flat=True).get(pk=game_id)
        fields = {k: v for k, v in action.items() if k != "player"}
        answer = matches.apply_action(game_id, action["player"], version, f"m{number}", fields)
        if answer["type"] != "accepted":
            raise RuntimeError(f"move {number} of the self-played game refused: {answer}")
    return max(done, offset)


def rows_of(game_id: int) -> dict:
    from games.models import Game

    row = Game.objects.get(pk=game_id)
    return {
        "row": {field.attname: getattr(row, field.attname) for field in Game._meta.concrete_fields},
        "events": list(row.events.all()),
    }


# --- the servers ---------------------------------------------------------------------------


def recreate_postgres_database(database_url: str) -> None:
    """The PostgreSQL database of `database_url` dropped and created anew (every bench run starts
    from an empty one)."""
    import psycopg

    url = urlparse(database_url)
    admin = database_url.replace(url.path, "/postgres")
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{url.path[1:]}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{url.path[1:]}"')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_proxy(args: argparse.Namespace, ports: list[int], home: Path) -> tuple[object, int]:
    """nginx with deploy/nginx.conf, its workers and listening port replaced by the bench's."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        raise SystemExit("--placement proxy needs nginx (Debian's package nginx-light)")
    config = (HERE / "deploy" / "nginx.conf").read_text()
    servers = "".join(f"        server 127.0.0.1:{port};\n" for port in ports)
    config = re.sub(r"(?m)^ *server 127\.0\.0\.1:\d+;\n", "", config)
    config = config.replace("consistent;\n", "consistent;\n" + servers, 1)
    port = args.port + args.workers if args.port else free_port()
    config = re.sub(r"listen 127\.0\.0\.1:\d+;", f"listen 127.0.0.1:{port};", config)
    (home / "nginx.conf").write_text(config)
    proxy = subprocess.Popen(
        [nginx, "-p", str(home), "-c", str(home / "nginx.conf"), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=(home / "nginx-start.log").open("w"),
    )
    wait_for_ports([port], home, "nginx")
    return proxy, port


def wait_for_ports(ports: list[int], home: Path, what: str) -> None:
    deadline = time.monotonic() + 60
    for port in ports:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{what} on {port} did not start; see {home}") from None
                time.sleep(0.2)


def start_workers(args: argparse.Namespace, env: dict, home: Path) -> tuple[list, list[int]]:
    ports = [args.port + n if args.port else free_port() for n in range(args.workers)]
    daphne = Path(sys.executable).with_name("daphne")
    workers = []
    for port in ports:
        log = (home / f"daphne-{port}.log").open("w")
        workers.append(
            subprocess.Popen(
                [str(daphne), "-b", "127.0.0.1", "-p", str(port), "tabletop.asgi:application"],
                cwd=args.source,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
    wait_for_ports(ports, home, "daphne")
    return workers, ports


# --- the clients ---------------------------------------------------------------------------


async def connect(url: str, headers: dict, **options):
    """A websocket, tried again when a busy server drops the handshake (before measuring)."""
    import websockets

    for attempt in range(5):
        try:
            return await websockets.connect(
                url, additional_headers=headers, open_timeout=60, ping_interval=None, **options
            )
        except (websockets.InvalidMessage, websockets.InvalidHandshake, OSError):
            if attempt == 4:
                raise
            await asyncio.sleep(1 + attempt)


class Table:
    """One game's 12 sockets and 12 echo sockets, and what they measured."""

    def __init__(self, game: dict, run: Run) -> None:
        self.game = game
        self.run = run
        self.version = game["version"]
        self.waiting: dict[int, list] = {}  # since -> [sent at, sockets reached, bytes]
        self.echoes: dict[int, list] = {}
        self.players: dict[int, object] = {}
        self.reached = asyncio.Event()

    async def open(self, ports: list[int], number: int) -> None:
        run = self.run
        tasks = []
        for index in range(2 + SPECTATORS):
            # Seat 1 and seat 2 on different workers, the spectators spread over them, and seat 1
            # on each worker in turn from one game to the next: the seat that plays most of the
            # first battle round does not load one worker alone.
            if run.args.placement == "proxy":
                port = ports[0]
            elif run.args.placement == "by-game":
                port = ports[number % len(ports)]
            else:
                port = ports[(index + number) % len(ports)]
            seat = index + 1 if index < 2 else None
            query = "" if seat else f"?spectate={self.game['spectate']}"
            headers = {"Origin": f"http://127.0.0.1:{port}"}
            if seat:
                headers["Cookie"] = run.world["cookies"][seat]
            url = f"ws://127.0.0.1:{port}/ws/games/{self.game['id']}/{query}"
            connection = await connect(url, headers, max_size=None)
            if seat:
                self.players[seat] = connection
            tasks.append(asyncio.create_task(self.listen(connection)))
            if run.args.no_echo:
                continue
            echo_port = port
            echo = await connect(
                f"ws://127.0.0.1:{echo_port}/ws/echo/?group=bench{number}x{run.nonce}",
                {"Origin": f"http://127.0.0.1:{echo_port}"},
            )
            if index == 0:
                self.echo_sender = echo
            tasks.append(asyncio.create_task(self.listen_echo(echo)))
        self.tasks = tasks

    async def listen(self, connection) -> None:
        import websockets

        try:
            async for text in connection:
                head = HEAD.search(text, 0, 200)
                if head and head.group(1) == "hello":
                    self.run.greeted()
                if not head or head.group(1) != "events" or head.group(2) is None:
                    continue
                since, arrived = int(head.group(2)), time.perf_counter()
                waiting = self.waiting.get(since)
                if waiting is None:
                    continue
                waiting[1] += 1
                if connection is not self.players.get(1) and connection is not self.players.get(2):
                    waiting[2] = len(text.encode())
                if waiting[1] == 2 + SPECTATORS:
                    self.run.latencies.append(arrived - waiting[0])
                    self.run.sizes.append(waiting[2])
                    self.version = int(head.group(3))
                    self.reached.set()
        except websockets.ConnectionClosed:
            pass
        self.run.closed(connection)

    async def listen_echo(self, connection) -> None:
        import websockets

        try:
            async for text in connection:
                arrived = time.perf_counter()
                sent = json.loads(text)["body"]["sent"]
                count = self.echoes.get(sent)
                if count is None:
                    continue
                count[0] += 1
                if count[0] == 2 + SPECTATORS:
                    self.run.fanouts.append(arrived - count[1])
        except websockets.ConnectionClosed:
            pass
        self.run.closed(connection)

    async def play(self, stop_at: float) -> None:
        import websockets

        interval = self.run.args.interval
        await asyncio.sleep(random.uniform(0, interval))
        for action in self.run.world["moves"][self.game.get("offset", 0) :]:
            started = time.perf_counter()
            if started > stop_at:
                return
            seat = action["player"]
            since = self.version
            self.waiting[since] = [started, 0, 0]
            self.reached.clear()
            message = {
                "type": "action",
                "version": since,
                "client_id": f"b{next(self.run.ids)}",
                "action": {k: v for k, v in action.items() if k != "player"},
            }
            try:
                await self.players[seat].send(json.dumps(message))
            except websockets.ConnectionClosed:
                return  # the server closed the player's socket (counted by `listen`)
            self.run.sent += 1
            try:
                await asyncio.wait_for(self.reached.wait(), ACTION_TIMEOUT)
            except TimeoutError:
                self.run.missed += 1
                return
            if self.run.args.no_echo:
                await asyncio.sleep(max(0.0, interval - (time.perf_counter() - started)))
                continue
            # Half-way to the next action: the bare fan-out to the same number of sockets.
            await asyncio.sleep(max(0.0, interval / 2 - (time.perf_counter() - started)))
            token = next(self.run.ids)
            self.echoes[token] = [0, time.perf_counter()]
            try:
                await self.echo_sender.send(json.dumps({"sent": token}))
            except websockets.ConnectionClosed:
                return
            await asyncio.sleep(max(0.0, interval - (time.perf_counter() - started)))


class Run:
    def __init__(self, args: argparse.Namespace, world: dict) -> None:
        self.args = args
        self.world = world
        self.nonce = random.randrange(10**6)
        self.ids = itertools.count(1)
        self.latencies: list[float] = []
        self.fanouts: list[float] = []
        self.sizes: list[int] = []
        self.sent = self.missed = 0
        self.stopping = False
        self.server_closed: list[int | None] = []
        self.hellos = 0
        self.all_greeted = asyncio.Event()

    def greeted(self) -> None:
        self.hellos += 1
        if self.hellos == len(self.world["games"]) * (2 + SPECTATORS):
            self.all_greeted.set()

    def closed(self, connection) -> None:
        if not self.stopping:
            self.server_closed.append(connection.close_code)

    async def main(self, ports: list[int], worker_pids: list[int]) -> dict:
        tables = [Table(game, self) for game in self.world["games"]]
        # The connect phase (a page-reload storm: every socket opens and reads its `hello`),
        # measured from the first handshake until the last `hello` has arrived.
        cpu_before = cpu_seconds(worker_pids)
        started = time.perf_counter()
        for number, table in enumerate(tables):
            await table.open(ports, number)
        # Measuring starts once every socket has its `hello`: the server accepts a socket before
        # it builds the hello, so 1,200 sockets leave seconds of hellos queued behind handshakes.
        await asyncio.wait_for(self.all_greeted.wait(), 300)
        connect_seconds = time.perf_counter() - started
        connect_cpu = sum(cpu_seconds(worker_pids)["workers"]) - sum(cpu_before["workers"])
        await asyncio.sleep(1)
        load_before = os.getloadavg()
        cpu_before = cpu_seconds(worker_pids)
        started = time.perf_counter()
        await asyncio.gather(*(t.play(started + self.args.seconds) for t in tables))
        elapsed = time.perf_counter() - started
        cpu_after = cpu_seconds(worker_pids)
        load_after = os.getloadavg()
        self.stopping = True
        for table in tables:
            for task in table.tasks:
                task.cancel()
        return {
            "connect_seconds": round(connect_seconds, 2),
            # The workers' CPU from the first handshake to the last `hello`, per socket.
            "connect_worker_cpu_seconds": round(connect_cpu, 2),
            "connect_worker_cpu_ms_per_socket": round(1000 * connect_cpu / self.hellos, 2),
            "elapsed": round(elapsed, 1),
            "load_average": [round(load_before[0], 2), round(load_after[0], 2)],
            # Cores used while measuring: who shares the machine's cores with the workers.
            "cpu_cores": {
                name: (
                    [round((a - b) / elapsed, 2) for a, b in zip(after, before, strict=True)]
                    if isinstance(after, list)
                    else round((after - before) / elapsed, 2)
                )
                for name, after in cpu_after.items()
                for before in [cpu_before[name]]
            },
        }


TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int | str) -> float:
    """User + system CPU seconds of a process (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def cpu_seconds(worker_pids: list[int]) -> dict:
    """CPU seconds so far of this process (the bench's client), each worker, and every PostgreSQL
    and Redis server process on the machine."""
    own = os.times()
    services = {"postgres": 0.0, "redis": 0.0, "nginx": 0.0}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm") as comm:
                name = comm.read().strip()
        except OSError:
            continue
        if name == "postgres":
            services["postgres"] += process_cpu(entry)
        elif name.startswith("redis-server"):
            services["redis"] += process_cpu(entry)
        elif name == "nginx":
            services["nginx"] += process_cpu(entry)
    return {
        "bench_client": own.user + own.system,
        "workers": [process_cpu(pid) for pid in worker_pids],
        **services,
    }


def percentiles(values: list[float]) -> dict:
    if len(values) < 2:
        return {"n": len(values)}
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return {
        "n": len(values),
        "p50_ms": round(1000 * cuts[49], 1),
        "p95_ms": round(1000 * cuts[94], 1),
        "p99_ms": round(1000 * cuts[98], 1),
    }


def redis_version(env: dict) -> str | None:
    """The redis-py the workers import."""
    if "REDIS_URL" not in env:
        return None
    probe = [sys.executable, "-c", "import redis; print(redis.__version__)"]
    return subprocess.run(probe, env=env, capture_output=True, text=True).stdout.strip()


def main() -> None:
    args = parse_args()
    home = Path(tempfile.mkdtemp(prefix="fanout-"))
    sys.path.insert(0, args.source)
    os.chdir(args.source)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="tabletop.settings", DEBUG="0", SECRET_KEY="bench-" * 8)
    # A PYTHONPATH given to the bench comes after the source (e.g. another redis-py).
    path = os.pathsep.join(p for p in (args.source, os.environ.get("PYTHONPATH", "")) if p)
    env.update(LOG_LEVEL="WARNING", PYTHONPATH=path, ALLOWED_HOSTS="127.0.0.1")
    if args.database_url:
        recreate_postgres_database(args.database_url)
        env["DATABASE_URL"] = args.database_url
    else:
        env["DATABASE_URL"] = f"sqlite:///{home / 'bench.sqlite3'}"
    if args.redis_url:
        import redis

        redis.Redis.from_url(args.redis_url).flushdb()
        env["REDIS_URL"] = args.redis_url
    elif args.workers > 1:
        raise SystemExit("several workers need --database-url and --redis-url")
    os.environ.update(env)
    world = build_world(args)
    workers, ports = start_workers(args, env, home)
    proxy = None
    try:
        pids = [worker.pid for worker in workers]
        if args.placement == "proxy":
            proxy, proxy_port = start_proxy(args, ports, home)
            ports = [proxy_port]
        run = Run(args, world)
        timing = asyncio.run(run.main(ports, pids))
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait(timeout=15)
        for worker in workers:
            worker.terminate()
        for worker in workers:
            try:
                worker.wait(timeout=15)
            except subprocess.TimeoutExpired:
                worker.kill()
    action = percentiles(run.latencies)
    bare = percentiles(run.fanouts)
    result = {
        "games": args.games,
        "spread": args.spread,
        "battle_size": args.battle_size,
        "interval": args.interval,
        "workers": args.workers,
        "placement": args.placement,
        "echo": not args.no_echo,
        "deployment": "postgresql+redis" if args.redis_url else "embedded",
        "source": args.source,
        **timing,
        "actions_sent": run.sent,
        "actions_per_second": round(len(run.latencies) / timing["elapsed"], 1),
        "actions_not_reaching_everyone": run.missed,
        # The workers' CPU while actions were sent, per action that reached everyone: the
        # engine, the database and Redis calls and the delivery together.
        "worker_cpu_ms_per_action": round(
            1000 * sum(timing["cpu_cores"]["workers"]) * timing["elapsed"] / len(run.latencies), 1
        )
        if run.latencies
        else None,
        "action_to_all": action,
        # A game sends its next action once the last reached everyone and `--interval` passed:
        # the server was saturated (the run found its capacity) only when actions waited longer
        # than the interval; otherwise the bench's pace bounded the rate (games / interval).
        "saturated": bool(run.latencies) and action["p50_ms"] > 1000 * args.interval,
        "bare_fanout": bare,
        "p99_ratio": round(action["p99_ms"] / bare["p99_ms"], 1) if "p99_ms" in bare else None,
        "events_bytes_median": statistics.median(run.sizes) if run.sizes else None,
        "sockets_closed_by_server": len(run.server_closed),
        "close_codes": sorted({code for code in run.server_closed if code is not None}),
        "redis_py": redis_version(env),
    }
    print(json.dumps(result))
    shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
