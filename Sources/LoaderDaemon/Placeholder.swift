enum LoaderDaemonPlaceholder {}
