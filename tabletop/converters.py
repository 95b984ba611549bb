"""URL converters that match only what can exist, so a malformed path is a 404, never a 500."""

from django.urls import register_converter


class RowIdConverter:
    """A database id: 1 to 18 digits, always within PostgreSQL's bigint."""

    regex = "[1-9][0-9]{0,17}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class TokenConverter:
    """An invite or spectator token (games.models.new_token): URL-safe base64, 8 to 64 chars."""

    regex = "[A-Za-z0-9_-]{8,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(RowIdConverter, "id")
register_converter(TokenConverter, "token")
