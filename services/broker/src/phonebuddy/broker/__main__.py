"""`python -m phonebuddy.broker serve | rollout`: the broker's commands without the `phonebuddy`
command (an image without `phonebuddy-cli`); the same as `phonebuddy broker serve` and
`phonebuddy rollout`."""

import typer

from phonebuddy.broker import cli, rollout_cli

app = typer.Typer(
    name="phonebuddy.broker",
    help="The rollout broker and `phonebuddy rollout`.",
    no_args_is_help=True,
    add_completion=False,
)
app.command("serve")(cli.serve)
app.add_typer(rollout_cli.app, name="rollout")

if __name__ == "__main__":
    app(prog_name="python -m phonebuddy.broker")
