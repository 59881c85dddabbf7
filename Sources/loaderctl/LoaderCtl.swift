import ArgumentParser

@main
struct LoaderCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loaderctl",
        abstract: "Drive the loaderd boot splash, and render its loaders offline.",
        discussion: """
            Offline (no daemon needed): `render` writes a frame or an animation to a file, `preview` \
            animates a loader in this terminal, `list` shows every loader and its parameters.
            """,
        subcommands: [Render.self, Preview.self, List.self]
    )
}
