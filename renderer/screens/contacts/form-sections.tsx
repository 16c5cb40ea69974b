/**
 * The contact form's sections: the profile (name, reaching them, work, personal) and the
 * sub-record collections (phones, emails, addresses, education, employment, notes).
 */
import type { UseFormReturn } from 'react-hook-form';
import { CONTACT_METHODS, CONTACT_STATUSES, CONTACT_TYPES, GENDERS } from '#shared/enums.ts';
import { Checkbox, Select, TextArea, TextField } from '../../ui/index.ts';
import { enumLabel } from './format.ts';
import type { ContactFormValues } from './form-model.ts';
import { PrimaryBox, SubRecordEditor } from './form-widgets.tsx';

interface SectionProps {
  form: UseFormReturn<ContactFormValues>;
  /** The message at a field path, if any. */
  err: (path: string) => string | undefined;
}

const OPTIONS = {
  contactType: CONTACT_TYPES.map((v) => ({ value: v, label: enumLabel(v) })),
  status: CONTACT_STATUSES.map((v) => ({ value: v, label: enumLabel(v) })),
  gender: GENDERS.map((v) => ({ value: v, label: enumLabel(v) })),
  preferredContactMethod: CONTACT_METHODS.map((v) => ({ value: v, label: enumLabel(v) })),
};

/** Name, reaching them, work and personal: the contact's own fields. */
export function ProfileSections(props: SectionProps) {
  return (
    <>
      <NameSection {...props} />
      <ReachSection {...props} />
      <WorkSection {...props} />
      <PersonalSection {...props} />
    </>
  );
}

/** The name, and what kind of contact this is and its status. */
function NameSection({ form: { register }, err }: SectionProps) {
  return (
    <fieldset className="panel form-section">
      <legend>Name</legend>
      <div className="form-grid">
        <TextField label="Prefix" autoComplete="off" {...register('prefix')} error={err('prefix')} />
        <TextField
          label="First name"
          required
          autoComplete="off"
          data-autofocus
          {...register('firstName')}
          error={err('firstName')}
        />
        <TextField
          label="Middle name"
          autoComplete="off"
          {...register('middleName')}
          error={err('middleName')}
        />
        <TextField
          label="Last name"
          required
          autoComplete="off"
          {...register('lastName')}
          error={err('lastName')}
        />
        <TextField label="Suffix" autoComplete="off" {...register('suffix')} error={err('suffix')} />
        <Select
          label="Type"
          options={OPTIONS.contactType}
          {...register('contactType')}
          error={err('contactType')}
        />
        <Select label="Status" options={OPTIONS.status} {...register('status')} error={err('status')} />
      </div>
    </fieldset>
  );
}

/** How to reach them: email, phone and the way they prefer. */
function ReachSection({ form: { register }, err }: SectionProps) {
  return (
    <fieldset className="panel form-section">
      <legend>Reaching them</legend>
      <div className="form-grid">
        <TextField
          label="Email"
          type="email"
          autoComplete="off"
          {...register('primaryEmail')}
          error={err('primaryEmail')}
        />
        <TextField
          label="Phone"
          type="tel"
          autoComplete="off"
          {...register('primaryPhone')}
          error={err('primaryPhone')}
        />
        <Select
          label="Preferred contact method"
          placeholder="— not set —"
          options={OPTIONS.preferredContactMethod}
          {...register('preferredContactMethod')}
          error={err('preferredContactMethod')}
        />
      </div>
    </fieldset>
  );
}

/** Their work: organization, title, employer, occupation, industry. */
function WorkSection({ form: { register }, err }: SectionProps) {
  return (
    <fieldset className="panel form-section">
      <legend>Work</legend>
      <div className="form-grid">
        <TextField
          label="Organization"
          autoComplete="off"
          {...register('organization')}
          error={err('organization')}
        />
        <TextField label="Job title" autoComplete="off" {...register('title')} error={err('title')} />
        <TextField label="Employer" autoComplete="off" {...register('employer')} error={err('employer')} />
        <TextField
          label="Occupation"
          autoComplete="off"
          {...register('occupation')}
          error={err('occupation')}
        />
        <TextField label="Industry" autoComplete="off" {...register('industry')} error={err('industry')} />
      </div>
    </fieldset>
  );
}

/** Birth date, gender, spouse, how to address them, party, capacity, source, quick notes. */
function PersonalSection({ form: { register }, err }: SectionProps) {
  return (
    <fieldset className="panel form-section">
      <legend>Personal</legend>
      <div className="form-grid">
        <TextField label="Birth date" type="date" {...register('birthDate')} error={err('birthDate')} />
        <Select
          label="Gender"
          placeholder="— not set —"
          options={OPTIONS.gender}
          {...register('gender')}
          error={err('gender')}
        />
        <TextField label="Spouse" autoComplete="off" {...register('spouse')} error={err('spouse')} />
        <TextField
          label="Salutation"
          autoComplete="off"
          hint="Informal, e.g. “Jo”"
          {...register('salutation')}
          error={err('salutation')}
        />
        <TextField
          label="Formal salutation"
          autoComplete="off"
          hint="For letters"
          {...register('formalSalutation')}
          error={err('formalSalutation')}
        />
        <TextField
          label="Political party"
          autoComplete="off"
          {...register('politicalParty')}
          error={err('politicalParty')}
        />
        <TextField
          label="Giving capacity"
          autoComplete="off"
          {...register('capacity')}
          error={err('capacity')}
        />
        <TextField
          label="Source"
          autoComplete="off"
          hint="How they came to you"
          {...register('source')}
          error={err('source')}
        />
      </div>
      <TextArea label="Quick notes" rows={2} {...register('quickNotes')} error={err('quickNotes')} />
    </fieldset>
  );
}

/** Phones, emails, addresses, education, employment and notes, each a list to add to and remove from. */
export function SubRecordSections({ form, err }: SectionProps) {
  const { register } = form;
  return (
    <>
      <SubRecordEditor form={form} name="phoneNumbers" legend="Phone numbers" noun="phone number" err={err}>
        {(i) => (
          <>
            <TextField
              label="Number"
              type="tel"
              required
              {...register(`phoneNumbers.${i}.phoneNumber`)}
              error={err(`phoneNumbers.${i}.phoneNumber`)}
            />
            <TextField
              label="Type"
              hint="e.g. mobile, home"
              {...register(`phoneNumbers.${i}.phoneType`)}
              error={err(`phoneNumbers.${i}.phoneType`)}
            />
            <PrimaryBox
              form={form}
              name="phoneNumbers"
              index={i}
              error={err(`phoneNumbers.${i}.isPrimary`)}
            />
          </>
        )}
      </SubRecordEditor>
      <SubRecordEditor
        form={form}
        name="emailAddresses"
        legend="Email addresses"
        noun="email address"
        err={err}
      >
        {(i) => (
          <>
            <TextField
              label="Email address"
              type="email"
              required
              {...register(`emailAddresses.${i}.emailAddress`)}
              error={err(`emailAddresses.${i}.emailAddress`)}
            />
            <TextField
              label="Type"
              hint="e.g. work, personal"
              {...register(`emailAddresses.${i}.emailType`)}
              error={err(`emailAddresses.${i}.emailType`)}
            />
            <PrimaryBox
              form={form}
              name="emailAddresses"
              index={i}
              error={err(`emailAddresses.${i}.isPrimary`)}
            />
          </>
        )}
      </SubRecordEditor>
      <SubRecordEditor form={form} name="addresses" legend="Addresses" noun="address" err={err}>
        {(i) => (
          <>
            <TextField
              label="Street"
              {...register(`addresses.${i}.street1`)}
              error={err(`addresses.${i}.street1`)}
            />
            <TextField
              label="Street, line 2"
              {...register(`addresses.${i}.street2`)}
              error={err(`addresses.${i}.street2`)}
            />
            <TextField label="City" {...register(`addresses.${i}.city`)} error={err(`addresses.${i}.city`)} />
            <TextField
              label="State or region"
              {...register(`addresses.${i}.state`)}
              error={err(`addresses.${i}.state`)}
            />
            <TextField
              label="Postal code"
              {...register(`addresses.${i}.postalCode`)}
              error={err(`addresses.${i}.postalCode`)}
            />
            <TextField
              label="Country"
              {...register(`addresses.${i}.country`)}
              error={err(`addresses.${i}.country`)}
            />
            <TextField
              label="Type"
              hint="e.g. home, work"
              {...register(`addresses.${i}.addressType`)}
              error={err(`addresses.${i}.addressType`)}
            />
            <PrimaryBox form={form} name="addresses" index={i} error={err(`addresses.${i}.isPrimary`)} />
          </>
        )}
      </SubRecordEditor>
      <SubRecordEditor form={form} name="education" legend="Education" noun="education record" err={err}>
        {(i) => (
          <>
            <TextField
              label="Institution"
              required
              {...register(`education.${i}.institution`)}
              error={err(`education.${i}.institution`)}
            />
            <TextField
              label="Degree"
              {...register(`education.${i}.degree`)}
              error={err(`education.${i}.degree`)}
            />
            <TextField
              label="Field of study"
              {...register(`education.${i}.fieldOfStudy`)}
              error={err(`education.${i}.fieldOfStudy`)}
            />
            <TextField
              label="Graduation year"
              inputMode="numeric"
              {...register(`education.${i}.graduationYear`)}
              error={err(`education.${i}.graduationYear`)}
            />
          </>
        )}
      </SubRecordEditor>
      <SubRecordEditor form={form} name="employment" legend="Employment" noun="employment record" err={err}>
        {(i) => (
          <>
            <TextField
              label="Employer"
              required
              {...register(`employment.${i}.employer`)}
              error={err(`employment.${i}.employer`)}
            />
            <TextField
              label="Job title"
              {...register(`employment.${i}.title`)}
              error={err(`employment.${i}.title`)}
            />
            <TextField
              label="Occupation"
              {...register(`employment.${i}.occupation`)}
              error={err(`employment.${i}.occupation`)}
            />
            <TextField
              label="Start date"
              type="date"
              {...register(`employment.${i}.startDate`)}
              error={err(`employment.${i}.startDate`)}
            />
            <TextField
              label="End date"
              type="date"
              {...register(`employment.${i}.endDate`)}
              error={err(`employment.${i}.endDate`)}
            />
            <Checkbox label="Current job" {...register(`employment.${i}.isCurrent`)} />
          </>
        )}
      </SubRecordEditor>
      <SubRecordEditor form={form} name="notes" legend="Notes" noun="note" err={err}>
        {(i) => (
          <>
            <TextArea
              label="Note"
              required
              rows={3}
              fieldClassName="span-2"
              {...register(`notes.${i}.content`)}
              error={err(`notes.${i}.content`)}
            />
            <TextField
              label="Type"
              hint="e.g. call, meeting"
              {...register(`notes.${i}.noteType`)}
              error={err(`notes.${i}.noteType`)}
            />
          </>
        )}
      </SubRecordEditor>
    </>
  );
}
