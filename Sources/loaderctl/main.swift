print("loaderctl")
