"""The client's address, as django-axes and the login rate limit see it.

Behind the README's TLS proxy every request comes from the proxy's address: locking
by that address would lock a username for everyone. The proxy's ``X-Forwarded-For``
header is read only when the request really comes from a proxy named in the setting
``TRUSTED_PROXIES`` (addresses or networks); anyone else could write that header.
The client is the right-most address in it that is not one of those proxies (each
proxy appends the address it saw, so what lies left of that was written by the client
and proves nothing).

django-ipware's trusted-proxy mode expects the proxies inside the header itself; a
single nginx with ``proxy_add_x_forwarded_for`` puts only the client there, so the
rule above is written out here (a dozen lines, tested in core/tests/test_login.py).
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks() -> list[Network]:
    return [ipaddress.ip_network(p, strict=False) for p in settings.TRUSTED_PROXIES]


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def client_ip(request: HttpRequest) -> str:
    remote = request.META.get("REMOTE_ADDR", "") or ""
    trusted = trusted_networks()
    peer = _address(remote)
    if not trusted or peer is None or not any(peer in net for net in trusted):
        return remote
    hops = [h for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            return remote  # a header the proxy did not write: trust none of it
        if not any(address in net for net in trusted):
            return str(address)
    return remote
