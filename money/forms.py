"""Forms of the money app: the reason a settled session is reopened."""

from django import forms


class ReopenForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Why the settled session is reopened; kept with the replaced settlement.",
    )
