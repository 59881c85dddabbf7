enum DisplaysPlaceholder {}
