"""Where a webhook may POST: no SSRF (docs/webhooks.md).

``check_url(url, allow_http, allow_private)`` parses the URL, resolves its
host once with ``resolve`` and refuses it (``TargetRefused`` with the
reason: ``TargetForbidden`` for the server's policy, a malformed URL
otherwise) unless every address is public; it answers the checked
addresses, and a delivery connects to one of those (pinned), never
resolving again. It runs when the webhook is set (403 for the policy, 422
for a malformed URL, which the schema's pattern already refuses) and again
at each delivery, so a name that resolves elsewhere later (DNS rebinding)
is refused then.

``resolve`` is a module-level function so that a test can stand in for DNS.
"""

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Cloud metadata services, refused even when private targets are allowed.
METADATA_ADDRESSES = frozenset(
    {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}
)
METADATA_NAMES = frozenset({"metadata.google.internal", "metadata.goog", "metadata"})
CGNAT = ipaddress.ip_network("100.64.0.0/10")
UNIQUE_LOCAL = ipaddress.ip_network("fc00::/7")
MAX_URL_LENGTH = 2048


class TargetRefused(Exception):
    """The URL may not be a webhook's: ``str(error)`` says why."""


class TargetForbidden(TargetRefused):
    """A well-formed URL the server's policy refuses (http:// where it is off,
    a host resolving to no address or to one that is not public): 403 when
    the webhook is set, where a malformed URL is 422."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # the name, as in the URL (the Host header, TLS SNI and certificate check)
    port: int
    path: str  # path and query
    addresses: tuple[str, ...]  # every address the name resolved to, each checked


def resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to (getaddrinfo), in its order."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def refusal(address: IPAddress, allow_private: bool) -> str | None:
    """Why ``address`` may not be a webhook target, or None."""
    if address in METADATA_ADDRESSES:
        return "a cloud metadata address"
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return refusal(address.ipv4_mapped, allow_private)
    if address.is_multicast:
        return "a multicast address"
    if address.is_unspecified:
        return "the unspecified address"
    if allow_private:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address in UNIQUE_LOCAL:
        return "a unique-local address"
    for name in ("loopback", "link_local", "private", "reserved"):
        if getattr(address, f"is_{name}"):
            return f"a {name.replace('_', '-')} address"
    if isinstance(address, ipaddress.IPv4Address) and address in CGNAT:
        return "a shared (CGNAT, 100.64.0.0/10) address"
    if not address.is_global:
        return "not a public address"
    return None


def _parse(url: str, allow_http: bool) -> tuple[str, str, int, str]:
    if len(url) > MAX_URL_LENGTH:
        raise TargetRefused(f"the URL is longer than {MAX_URL_LENGTH} characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise TargetRefused(f"not a valid URL ({exc})") from None
    if parts.scheme not in ("https", "http"):
        raise TargetRefused("the URL must be https:// (http:// only where the operator allows it)")
    if parts.scheme == "http" and not allow_http:
        raise TargetForbidden("the URL must be https:// (this server does not allow http://)")
    if not parts.hostname or parts.username is not None or parts.password is not None:
        raise TargetRefused("the URL needs a host and no user or password")
    default = 443 if parts.scheme == "https" else 80
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname.rstrip(".").lower(), port or default, path


def check_url(url: str, allow_http: bool = False, allow_private: bool = False) -> Target:
    """The URL's target, every address it resolves to checked; or ``TargetRefused``."""
    scheme, host, port, path = _parse(url, allow_http)
    if host in METADATA_NAMES:
        raise TargetForbidden(f"{host} is a cloud metadata service")
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        try:
            addresses = [ipaddress.ip_address(a.split("%")[0]) for a in resolve(host, port)]
        except (OSError, ValueError) as exc:  # UnicodeError is a ValueError
            raise TargetForbidden(f"{host} does not resolve ({exc})") from None
    if not addresses:
        raise TargetForbidden(f"{host} does not resolve")
    for address in addresses:
        reason = refusal(address, allow_private)
        if reason is not None:
            raise TargetForbidden(f"{host} resolves to {address}, {reason}")
    return Target(scheme, host, port, path, tuple(str(a) for a in addresses))
