"""The site's own date formats, where Django's for a language read as a list rather than
a sentence: a moment is written "24 novembre 2026 à 15:30", as a person writes it in the
middle of "votre temps expire le …". Django's own formats answer for everything else."""
