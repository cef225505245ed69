# Every model of this app is registered here, with Chinese verbose names.
