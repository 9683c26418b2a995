import EncoreCLI

Encore.runAndExit()
