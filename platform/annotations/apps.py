from django.apps import AppConfig
from django.db.models.signals import post_migrate


class AnnotationsConfig(AppConfig):
    name = "annotations"
    verbose_name = "Expert workspace"

    def ready(self) -> None:
        # Imported here: roles needs the auth models, which load only after this module.
        from annotations.roles import roles_ensure_after_migrate

        # The role groups need the app's permissions, which exist only after migrate (and after
        # every flush of a transactional test), so they are (re)made there.
        post_migrate.connect(roles_ensure_after_migrate, sender=self)
