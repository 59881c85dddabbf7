enum LoadersPlaceholder {}
