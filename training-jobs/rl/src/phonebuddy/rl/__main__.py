"""`python -m phonebuddy.rl` (the same as `phonebuddy train rl`)."""

from phonebuddy.rl.cli import main

if __name__ == "__main__":
    main()
