DATETIME_FORMAT = r"j F Y \o\m H:i"
