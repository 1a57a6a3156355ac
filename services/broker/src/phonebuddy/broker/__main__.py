"""`python -m phonebuddy.broker serve | rollout | demo`: the broker's commands without the
`phonebuddy` command (an image without `phonebuddy-cli`); the same as `phonebuddy broker serve`,
`phonebuddy rollout` and `phonebuddy demo`."""

import typer

from phonebuddy.broker import cli, demo, rollout_cli

app = typer.Typer(
    name="phonebuddy.broker",
    help="The rollout broker, `phonebuddy rollout` and `phonebuddy demo`.",
    no_args_is_help=True,
    add_completion=False,
)
app.command("serve")(cli.serve)
app.add_typer(rollout_cli.app, name="rollout")
app.add_typer(demo.app, name="demo")

if __name__ == "__main__":
    app(prog_name="python -m phonebuddy.broker")
