enum ImageCodecsPlaceholder {}
