import EncoreCLI

await Encore.runAndExit()
