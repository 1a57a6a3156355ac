from phonebuddy.sft.cli import main

main()
