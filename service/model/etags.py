"""A match's ``ETag`` is its version: ``If-Match`` / ``If-None-Match`` read as versions."""


def entity_tags(value: str) -> set[str] | str:
    """Parse an ``If-Match``/``If-None-Match`` list (``"17"``, ``W/"17", "18.3"``, ``*``).

    Returns ``"*"`` or the set of tags listed, without ``W/`` and quotes.
    """
    if value.strip() == "*":
        return "*"
    return {entry.strip().removeprefix("W/").strip('"') for entry in value.split(",")}


def version_header(value: str) -> set[int] | str:
    """``entity_tags`` read as match versions: ``"*"`` or the set of versions
    listed; entries that cannot be a version are dropped (so they never match).
    """
    tags = entity_tags(value)
    return tags if tags == "*" else {int(tag) for tag in tags if tag.isdigit()}
