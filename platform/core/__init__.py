"""What every app may use and that belongs to none: htmx request helpers, the user-facing error,
sending a message to a named actor. The bottom layer: it imports no app (pyproject.toml's
import-linter contracts)."""
