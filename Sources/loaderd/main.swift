print("loaderd: the daemon is not built yet; see `loaderctl --help`.")
