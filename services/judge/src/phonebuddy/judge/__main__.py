"""`python -m phonebuddy.judge serve ...` (the same as `phonebuddy judge ...`)."""

from phonebuddy.judge.cli import app

if __name__ == "__main__":
    app()
