from phonebuddy.eval.cli import main

main()
