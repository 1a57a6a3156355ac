"""`python -m phonebuddy.device_gateway serve ...` (the same as `phonebuddy gateway ...`)."""

from phonebuddy.device_gateway.cli import app

if __name__ == "__main__":
    app()
