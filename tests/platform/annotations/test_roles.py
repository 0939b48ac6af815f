

def test_curator_is_a_role_that_can_be_granted_and_builds_releases(db):
    from django.contrib.auth import get_user_model

    from annotations import roles
    from releases.services import can_curate as release_curate

    person = get_user_model().objects.create_user("cura")
    assert not release_curate(person)
    roles.role_grant(person, "curator")
    person = get_user_model().objects.get(pk=person.pk)
    assert release_curate(person) and roles.user_roles(person) == ["curator"]
    roles.role_revoke(person, "curator")
    assert not release_curate(get_user_model().objects.get(pk=person.pk))
