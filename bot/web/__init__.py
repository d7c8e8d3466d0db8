"""The game pages on the web: an aiohttp application built on the host's pages
(:class:`bot.service.history.web_pages.Pages`), served inside the bot or as a process of its own."""
