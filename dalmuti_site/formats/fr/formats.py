DATETIME_FORMAT = r"j F Y \à H:i"
