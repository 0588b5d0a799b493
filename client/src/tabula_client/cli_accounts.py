"""The ``tabula`` commands of accounts: ``login``, ``logout``, ``whoami``,
``token create|list|revoke`` and ``matches [--mine]``, each
``cmd_NAME(client, args, out) -> exit status``, and their parsers."""

import argparse
import getpass
import sys
from typing import Any

from rich.table import Table

from . import cli_credentials as credentials
from .cli_commands import UsageError
from .cli_format import Output, seat_label
from .client import Client
from .models import ALL_SCOPES, MatchSummary, TokenInfo


def add_account_commands(commands: Any, common: argparse.ArgumentParser) -> None:
    """``login``, ``logout``, ``whoami``, ``token`` and ``matches``."""
    login = commands.add_parser(
        "login", parents=[common], help="check a token and keep it for this server (--token or asked)"
    )
    login.set_defaults(run=cmd_login, stored_token=False)
    logout = commands.add_parser("logout", parents=[common], help="forget this server's stored token")
    logout.set_defaults(run=cmd_logout, stored_token=False)
    commands.add_parser("whoami", parents=[common], help="the token's account").set_defaults(run=cmd_whoami)
    add_token_commands(commands, common)
    matches = commands.add_parser("matches", parents=[common], help="the lobby, or --mine: your matches")
    matches.add_argument("--mine", action="store_true", help="your account's matches, newest first")
    matches.add_argument("--status", choices=("waiting", "active", "finished"))
    matches.add_argument("--to-act", action="store_true", help="with --mine: only where you are to act")
    matches.add_argument("--game", help="without --mine: only this game")
    matches.add_argument("--page", type=int, help="page number, from 1")
    matches.add_argument("--page-size", type=int)
    matches.set_defaults(run=cmd_matches)


def add_token_commands(commands: Any, common: argparse.ArgumentParser) -> None:
    token = commands.add_parser("token", parents=[common], help="your personal access tokens")
    actions = token.add_subparsers(dest="token_command", required=True, metavar="ACTION")
    create = actions.add_parser("create", parents=[common], help="a new token (printed once)")
    create.add_argument("label")
    create.add_argument(
        "--scope",
        action="append",
        choices=ALL_SCOPES,
        metavar="SCOPE",
        help=f"repeatable; default: all ({', '.join(ALL_SCOPES)})",
    )
    create.add_argument("--expires-in", type=int, metavar="SECONDS", help="default: never")
    create.set_defaults(run=cmd_token_create)
    actions.add_parser("list", parents=[common], help="your tokens").set_defaults(run=cmd_token_list)
    revoke = actions.add_parser("revoke", parents=[common], help="revoke a token at once")
    revoke.add_argument("id")
    revoke.set_defaults(run=cmd_token_revoke)


# -- login, logout, whoami --


def ask_token() -> str:
    if sys.stdin.isatty():
        return getpass.getpass("Personal access token (tab_pat_...): ").strip()
    return sys.stdin.readline().strip()


def cmd_login(client: Client, args: argparse.Namespace, out: Output) -> int:
    token = client.token or ask_token()
    if not token:
        raise UsageError("give a token: --token, TABULA_TOKEN or on standard input")
    account = client.with_token(token).account()
    path = credentials.store(client.base_url, token, name=account["name"], kind=account["kind"])
    out.report(
        {"url": client.base_url, "account": account, "credentials": str(path)},
        f"logged in to {client.base_url} as {account['name']} ({account['kind']}); token kept in {path}",
        "bold green",
    )
    return 0


def cmd_logout(client: Client, args: argparse.Namespace, out: Output) -> int:
    had = credentials.forget(client.base_url)
    text = f"logged out of {client.base_url}" if had else f"no token was stored for {client.base_url}"
    out.report({"url": client.base_url, "forgotten": had}, text, "green" if had else "yellow")
    return 0


def cmd_whoami(client: Client, args: argparse.Namespace, out: Output) -> int:
    if not client.token:
        raise UsageError("not logged in: tabula login, or --token")
    account = client.account()
    app = f", app {account['app']} user {account['external_id']}" if account.get("app") else ""
    out.report(
        dict(account),
        f"{account['name']} ({account['kind']}, {account['status']}, since {account['created_at']}{app}) "
        f"on {client.base_url}",
        "bold",
    )
    return 0


# -- tokens --


def cmd_token_create(client: Client, args: argparse.Namespace, out: Output) -> int:
    scopes = list(dict.fromkeys(args.scope or ALL_SCOPES))
    new = client.create_token(args.label, scopes, expires_in_s=args.expires_in)
    if out.json:
        out.data(new)
        return 0
    out.line(f"token {new['id']} ({new['label']}): {', '.join(new['scopes'])}", style="bold green")
    out.line(new["token"])
    out.line("shown this once: keep it now", style="yellow")
    return 0


def cmd_token_list(client: Client, args: argparse.Namespace, out: Output) -> int:
    tokens = client.tokens()
    out.listing(tokens, lambda: tokens_table(tokens), lambda: map(token_line, tokens))
    return 0


def token_line(token: TokenInfo) -> str:
    return (
        f"{token['id']} {token['label']!r} [{' '.join(token['scopes'])}] created {token['created_at']}, "
        f"expires {token['expires_at'] or 'never'}, last used {token['last_used_at'] or 'never'}"
    )


def tokens_table(tokens: list[TokenInfo]) -> Table:
    table = Table(title="Personal access tokens")
    for column in ("id", "label", "scopes", "created", "expires", "last used"):
        table.add_column(column)
    for token in tokens:
        table.add_row(
            token["id"],
            token["label"],
            "\n".join(token["scopes"]),
            token["created_at"],
            token["expires_at"] or "never",
            token["last_used_at"] or "never",
        )
    return table


def cmd_token_revoke(client: Client, args: argparse.Namespace, out: Output) -> int:
    client.revoke_token(args.id)
    out.report({"revoked": args.id}, f"token {args.id} revoked", "green")
    return 0


# -- matches --


def cmd_matches(client: Client, args: argparse.Namespace, out: Output) -> int:
    if args.mine:
        if not client.token:
            raise UsageError("--mine needs your account: tabula login, or --token")
        matches = client.my_matches(args.status, args.to_act or None, args.page, args.page_size)
    elif args.to_act:
        raise UsageError("--to-act goes with --mine")
    else:
        matches = client.list_matches(args.status, args.game, args.page, args.page_size)
    title = "Your matches" if args.mine else "Matches"
    out.listing(
        matches, lambda: matches_table(matches, title), lambda: (" ".join(matches_row(m)) for m in matches)
    )
    return 0


def matches_row(match: MatchSummary) -> tuple[str, str, str, str, str]:
    """match id, game, status and version, seats, to act (or the winners)."""
    labels = ", ".join(seat_label(seat) for seat in match.get("seats", []))
    if match.get("status") == "finished":
        result = match.get("result")
        winners = result["winners"] if result else []
        who = "winners: " + (", ".join(f"seat {w}" for w in winners) or "none")
    else:
        who = "to act: " + (", ".join(f"seat {s}" for s in match.get("to_act", [])) or "nobody")
    return match["id"], match["game"], f"{match['status']} v{match['version']}", labels, who


def matches_table(matches: list[MatchSummary], title: str) -> Table:
    table = Table(title=title)
    for column in ("match", "game", "status", "seats", "turn"):
        table.add_column(column)
    for match in matches:
        table.add_row(*matches_row(match))
    return table
